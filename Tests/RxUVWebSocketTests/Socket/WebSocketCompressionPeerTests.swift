import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import RxUVWebSocket
import XCTest

/// permessage-deflate (RFC 7692) against peers: Python's `websockets`
/// (which offers and accepts it by default) as a client of RxUV's server
/// under several agreements and as a server for RxUV's client, RxUV on both
/// ends, and a raw client that checks the server's frames are compressed.
final class WebSocketCompressionPeerTests: BridgeTestCase {
    private static var router: HTTPRouter {
        var router = HTTPRouter()
        let echo: WebSocketHandler = { socket, _ in socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable() }
        func options(_ compression: WebSocketCompression?) -> WebSocketOptions {
            WebSocketOptions(maxFrameLength: 1 << 21, maxMessageLength: 1 << 21, compression: compression)
        }
        router.webSocket("/echo", options: options(WebSocketCompression()), handler: echo)
        let small = WebSocketCompression(maxWindowBits: 9, peerMaxWindowBits: 15, noContextTakeover: true, peerNoContextTakeover: true)
        router.webSocket("/small", options: options(small), handler: echo)
        router.webSocket("/plain", options: options(nil), handler: echo)
        return router
    }

    private func withServer<Result: Sendable>(_ body: @escaping @Sendable (_ port: Int, _ loop: Loop) async throws -> Result) throws -> Result {
        try loop.run { [loop = loop!] in
            try await serving(Self.router, on: loop) { server in try await body(Int(server.address.port), loop) }
        }
    }

    /// Python's client against RxUV's server: what each agreement answers,
    /// and echoes of 0 B to 1 MiB (text and binary, compressible and not)
    /// byte for byte through it.
    func testPythonClients_AgainstRxUVServer() throws {
        let script = """
            import asyncio, os, sys
            from websockets.asyncio.client import connect
            from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
            port = sys.argv[1]
            messages = [b"", "", b"", "Hello", "", "é" * 70000, os.urandom(100000), b"abc" * 350000, "words, words, words " * 52000, b"x"]
            async def run(name, path, **options):
                async with connect(f"ws://127.0.0.1:{port}{path}", max_size=2**22, **options) as ws:
                    same = True
                    for message in messages:
                        await ws.send(message)
                        same = same and await ws.recv() == message
                    print(name, ws.response.headers.get("Sec-WebSocket-Extensions"), same)
            async def main():
                await run("default", "/echo")
                await run("asked", "/echo", extensions=[ClientPerMessageDeflateFactory(
                    server_no_context_takeover=True, client_no_context_takeover=True, server_max_window_bits=10, client_max_window_bits=9)])
                await run("small", "/small")
                await run("plain", "/plain")
                await run("none", "/echo", compression=None)
            asyncio.run(main())
            """
        let output = try withServer { port, loop in try await loop.python(script, ["\(port)"]) }
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init),
            [
                "default permessage-deflate; server_max_window_bits=12; client_max_window_bits=12 True",
                "asked permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9 True",
                "small permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9 True",
                "plain None True",
                "none None True",
            ], output)
    }

    /// A raw client sees the server's echo compressed: RFC 7692's "Hello"
    /// twice (the second with the first's window) comes back as frames with
    /// RSV1 that inflate to "Hello", the second shorter than the first.
    func testServerSendsCompressedFrames() throws {
        let probe = #"""
            import base64, os, socket, struct, sys, zlib
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
            s.sendall(b"GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                      b"Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)) + b"\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(4096)
            head, data = data.split(b"\r\n\r\n", 1)
            mask = b"\x01\x02\x03\x04"
            def masked(first, payload):
                return bytes([first, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            s.sendall(masked(0xC1, bytes([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])) + masked(0xC1, bytes([0xF2, 0x00, 0x11, 0x00, 0x00])))
            inflater = zlib.decompressobj(-12)
            for _ in range(2):
                while len(data) < 2 or len(data) < 2 + (data[1] & 0x7F):
                    data += s.recv(4096)
                first, n = data[0], data[1] & 0x7F
                payload, data = data[2:2 + n], data[2 + n:]
                print("0x%02x" % first, n, inflater.decompress(payload + b"\x00\x00\xff\xff").decode())
            s.sendall(masked(0x88, struct.pack("!H", 1000)))
            """#
        let output = try withServer { port, loop in try await loop.python(probe, ["\(port)"]) }
        let lines = output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(lines.map { [$0[0], $0[2]] }, [["0xc1", "Hello"], ["0xc1", "Hello"]], output)
        XCTAssertLessThan(Int(lines[1][1]) ?? 99, Int(lines[0][1]) ?? 0, output)
    }

    /// RxUV's client, offering permessage-deflate, against RxUV's server
    /// (with it and without), and against Python's `websockets` server: the
    /// agreement each comes to, and the same echoes byte for byte.
    func testRxUVClient_AgainstRxUVServerAndPython() throws {
        var generator = SeededGenerator(seed: 11)
        let random = ByteBuffer((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let messages: [WebSocketMessage] = [
            .text(""), .text("Hello"), .binary(random), .text(String(repeating: "words, words ", count: 80_000)), .binary(ByteBuffer([0])),
        ]
        let results = try withServer { port, loop in
            let client = HTTPClient(loop: loop)
            let options = WebSocketOptions(maxFrameLength: 1 << 21, maxMessageLength: 1 << 21, compression: WebSocketCompression())
            func exchange(_ url: String) async throws -> String {
                let socket = try await client.rx.webSocket(url, options: options).value
                var received = socket.messages.values.makeAsyncIterator()
                var same = true
                for message in messages {
                    _ = try await socket.send(message).value
                    same = try await received.next() == message && same
                }
                socket.close()
                _ = try await socket.closed.value
                return "\(socket.compression?.description ?? "none") \(same)"
            }
            let ours = try await exchange("ws://127.0.0.1:\(port)/echo")
            let plain = try await exchange("ws://127.0.0.1:\(port)/plain")
            let pythonServer = """
                import asyncio
                from websockets.asyncio.server import serve
                async def echo(ws):
                    async for message in ws:
                        await ws.send(message)
                async def main():
                    async with serve(echo, "127.0.0.1", 0, max_size=2**22) as server:
                        print(server.sockets[0].getsockname()[1], flush=True)
                        await asyncio.sleep(10)
                asyncio.run(main())
                """
            let python = try await PythonPeer.start(pythonServer, on: loop)
            do {
                let pythonPort = try await python.firstLine()
                let theirs = try await exchange("ws://127.0.0.1:\(pythonPort)/")
                await python.stop()
                try await client.shutdown().value
                return [ours, plain, theirs]
            } catch {
                await python.stop()
                try? await client.shutdown().value
                throw error
            }
        }
        XCTAssertEqual(
            results,
            [
                "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12 true", "none true",
                "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12 true",
            ])
    }
}
