import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTLS
import RxUVTestSupport
import RxUVWebSocket
import XCTest

/// The socket against peers: Python's `websockets` as a client of RxUV's
/// server and as a server for RxUV's client, RxUV on both ends, and the
/// server's drain; messages from 0 B to 1 MiB, text and binary, and the
/// close handshake's codes.
final class WebSocketPeerTests: BridgeTestCase {
    /// Echoes every message; `/feed` sends three and closes with 1000;
    /// `/protocols` speaks `chat.v2` or `chat.v1`.
    private static var router: HTTPRouter {
        var router = HTTPRouter()
        router.webSocket("/echo") { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        router.webSocket("/feed") { socket, _ in
            Observable.from(["one", "two", "three"]).concatMap { socket.send(.text($0)).asObservable() }.asCompletable()
        }
        router.webSocket("/protocols", subprotocols: ["chat.v2", "chat.v1"]) { socket, _ in
            socket.send(.text(socket.subprotocol ?? "none"))
        }
        router.webSocket("/keepalive", options: WebSocketOptions(pingInterval: .milliseconds(20), pongTimeout: .milliseconds(200))) { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        // Closes at once with a reason longer than a Close has room for.
        router.webSocket("/goodbye") { socket, _ in
            socket.close(code: .normalClosure, reason: String(repeating: "é", count: 100))
            return socket.messages.ignoreElements().asCompletable()
        }
        router.get("/plain") { _ in .just(.text("plain")) }
        return router
    }

    private func withServer<Result: Sendable>(
        _ body: @escaping @Sendable (_ server: Server, _ loop: Loop) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            try await serving(Self.router, on: loop) { server in try await body(server, loop) }
        }
    }

    /// Python's `websockets` client against RxUV's server: text and binary
    /// echoes of 0 B to 1 MiB, the subprotocol chosen by the server's
    /// order, a feed the server closes with 1000, and a plain route's 200
    /// refused by the client.
    func testPythonClient_AgainstRxUVServer() throws {
        let script = """
            import asyncio, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import InvalidStatus
            port = sys.argv[1]
            async def main():
                async with connect(f"ws://127.0.0.1:{port}/echo", max_size=2**21) as ws:
                    for size in (0, 1, 125, 126, 65535, 65536, 2**20):
                        await ws.send("é" * (size // 2) + "x" * (size % 2))
                        text = await ws.recv()
                        await ws.send(bytes(range(256)) * (size // 256) + b"y" * (size % 256))
                        data = await ws.recv()
                        print("echo", size, len(text.encode()), len(data), data[:3].hex())
                async with connect(f"ws://127.0.0.1:{port}/feed") as ws:
                    got = [await ws.recv() for _ in range(3)]
                    await ws.wait_closed()
                    print("feed", got, ws.close_code)
                async with connect(f"ws://127.0.0.1:{port}/protocols", subprotocols=["chat.v1", "chat.v2"]) as ws:
                    print("protocol", ws.subprotocol, await ws.recv())
                async with connect(f"ws://127.0.0.1:{port}/keepalive", ping_interval=None) as ws:
                    await asyncio.sleep(0.5)
                    await ws.send("still")
                    print("keepalive", await ws.recv())
                async with connect(f"ws://127.0.0.1:{port}/goodbye") as ws:
                    await ws.wait_closed()
                    print("goodbye", ws.close_code, len(ws.close_reason.encode()), set(ws.close_reason))
                try:
                    async with connect(f"ws://127.0.0.1:{port}/plain"):
                        pass
                except InvalidStatus as error:
                    print("refused", error.response.status_code)
            asyncio.run(main())
            """
        let output = try withServer { server, loop in try await loop.python(script, ["\(server.address.port)"]) }
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [0, 1, 125, 126, 65535, 65536, 1 << 20].map { size in
                "echo \(size) \(size) \(size) \(size >= 256 ? "000102" : String(repeating: "79", count: min(size, 3)))"
            } + ["feed ['one', 'two', 'three'] 1000", "protocol chat.v2 chat.v2", "keepalive still", "goodbye 1000 122 {'é'}", "refused 200"], output)
    }

    /// RxUV's client against RxUV's server, and against Python's
    /// `websockets` server: a text and a binary echo, the close handshake
    /// begun by the client (1000 both ways).
    func testRxUVClient_AgainstRxUVServerAndPython() throws {
        let results = try withServer { server, loop in
            let client = HTTPClient(loop: loop)
            func exchange(_ url: String) async throws -> [String] {
                let socket = try await client.rx.webSocket(url).value
                var messages = socket.messages.values.makeAsyncIterator()
                _ = try await socket.send(.text("hello")).value
                let first = try await messages.next()
                _ = try await socket.send(.binary(ByteBuffer([1, 2, 3]))).value
                let second = try await messages.next()
                socket.close(code: .normalClosure, reason: "done")
                let end = try await messages.next()
                let closed = try await socket.closed.value
                return ["\(first.map { "\($0)" } ?? "-")", "\(second.map { "\($0)" } ?? "-")", end == nil ? "ended" : "more", "\(closed.code.rawValue)"]
            }
            let ours = try await exchange("ws://127.0.0.1:\(server.address.port)/echo")
            let pythonServer = """
                import asyncio, sys
                from websockets.asyncio.server import serve
                async def echo(ws):
                    async for message in ws:
                        await ws.send(message)
                async def main():
                    async with serve(echo, "127.0.0.1", 0) as server:
                        print(server.sockets[0].getsockname()[1], flush=True)
                        await asyncio.sleep(10)
                asyncio.run(main())
                """
            let python = try await PythonPeer.start(pythonServer, on: loop)
            do {
                let port = try await python.firstLine()
                let theirs = try await exchange("ws://127.0.0.1:\(port)/")
                await python.stop()
                try await client.shutdown().value
                return ours + theirs
            } catch {
                await python.stop()
                try? await client.shutdown().value
                throw error
            }
        }
        let expected = ["text(5 bytes)", "binary(3 bytes)", "ended", "1000"]
        XCTAssertEqual(results, expected + expected)
    }

    /// `loop.rx.webSocket`, with no `HTTPClient` in sight: an echo, the
    /// close handshake, and (the leak gates) the client it made shut down;
    /// a refused URL fails as the client's does.
    func testLoopWebSocket_MakesAndShutsItsClient() throws {
        let results = try withServer { server, loop in
            let socket = try await loop.rx.webSocket("ws://127.0.0.1:\(server.address.port)/echo").value
            var messages = socket.messages.values.makeAsyncIterator()
            _ = try await socket.send(.text("on the loop")).value
            let echoed = try await messages.next()
            socket.close()
            let closed = try await socket.closed.value
            var refused = "none"
            do {
                _ = try await loop.rx.webSocket("ftp://127.0.0.1/echo").value
            } catch {
                refused = "\(type(of: error))"
            }
            return ["\(echoed.map { "\($0)" } ?? "-")", "\(closed.code.rawValue)", refused]
        }
        XCTAssertEqual(results, ["text(11 bytes)", "1000", "HTTPClientError"])
    }

    /// `wss`: RxUV's client and Python's `websockets` against RxUV's server
    /// over TLS (the test CA trusted, the certificate checked against
    /// 127.0.0.1): the same echo, and no OpenSSL object left.
    func testWSS_OverTLS_BothClients() throws {
        let folder = TestCertificateFolder.path
        let context = try TLSContext(
            configuration: .server(identity: TLSIdentity(certificateChain: .file(folder + "/server.pem"), privateKey: .file(folder + "/server.key"))))
        let script = """
            import asyncio, ssl, sys
            from websockets.asyncio.client import connect
            async def main():
                context = ssl.create_default_context(cafile=sys.argv[2])
                async with connect(f"wss://127.0.0.1:{sys.argv[1]}/echo", ssl=context) as ws:
                    await ws.send(b"\\x00" * 70000)
                    print("python", len(await ws.recv()))
            asyncio.run(main())
            """
        let results = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, tls: context) { served in
                served.serveHTTP(handler: Self.router.handler)
            }.value
            let client = HTTPClient(loop: loop, configuration: HTTPClientConfiguration(tls: .client(trustRoots: .certificates(.file(folder + "/ca.pem")))))
            do {
                let socket = try await client.rx.webSocket("wss://127.0.0.1:\(server.address.port)/echo").value
                var messages = socket.messages.values.makeAsyncIterator()
                _ = try await socket.send(.text("over tls")).value
                let echoed = try await messages.next()
                socket.close()
                let closed = try await socket.closed.value
                let python = try await loop.python(script, ["\(server.address.port)", folder + "/ca.pem"])
                try await client.shutdown().value
                try await server.drain(deadline: .seconds(2)).value
                return ["\(echoed.map { "\($0)" } ?? "-")", "\(closed.code.rawValue)", python]
            } catch {
                try? await client.shutdown().value
                try? await server.drain(deadline: .seconds(2)).value
                throw error
            }
        }
        XCTAssertEqual(results, ["text(8 bytes)", "1000", "python 70000\n"])
        XCTAssertEqual(TLSResources.liveConnections, 0)
    }

    /// The server's drain closes an open socket with 1001 (going away); the
    /// Python client sees it and the server's drain ends in time.
    func testDrain_ClosesSocketsWithGoingAway() throws {
        let script = """
            import asyncio, sys
            from websockets.asyncio.client import connect
            async def main():
                async with connect(f"ws://127.0.0.1:{sys.argv[1]}/echo") as ws:
                    print("open", flush=True)
                    await ws.wait_closed()
                    print("closed", ws.close_code, ws.close_reason == "")
            asyncio.run(main())
            """
        let output = try withServer { server, loop in
            let python = try await PythonPeer.start(script, ["\(server.address.port)"], on: loop)
            do {
                _ = try await python.firstLine()
                try await server.drain(deadline: .seconds(5)).value
                let rest = try await python.rest()
                await python.stop()
                return rest
            } catch {
                await python.stop()
                throw error
            }
        }
        XCTAssertEqual(output, "closed 1001 True\n")
    }
}
