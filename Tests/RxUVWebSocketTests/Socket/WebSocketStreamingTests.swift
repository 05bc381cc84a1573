import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import RxUVWebSocket
import XCTest

/// Messages past a socket's streaming threshold, both ways: a received one
/// read as it arrives with the connection's reading held while its reader
/// has no room, one sent from an Observable frame by frame with the
/// messages sent meanwhile behind it, and a stream echoed to Python's
/// `websockets` byte for byte.
final class WebSocketStreamingTests: BridgeTestCase {
    private static let options = WebSocketOptions(maxFrameLength: 1 << 20, maxMessageLength: 64 << 20, unreadLimit: 256 << 10, streamingThreshold: 64 << 10)

    private static var router: HTTPRouter {
        var router = HTTPRouter()
        // Answers each message with its kind and length; a stream's bytes
        // are first left unread for 300 ms.
        router.webSocket("/sum", options: options) { socket, _ in
            socket.messages.concatMap { message -> Observable<Never> in
                switch message {
                case .stream(let stream):
                    return Observable<Int>.timer(.milliseconds(300), scheduler: socket.loop)
                        .flatMap { _ in stream.bytes.reduce(0) { $0 + $1.count } }
                        .flatMap { count in socket.send(.text("stream \(stream.opcode) \(count)")).asObservable() }
                default:
                    return socket.send(.text("whole \(message.byteCount)")).asObservable()
                }
            }.asCompletable()
        }
        router.webSocket("/echo", options: options) { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        return router
    }

    private func withServer<Result: Sendable>(_ body: @escaping @Sendable (_ port: Int, _ loop: Loop) async throws -> Result) throws -> Result {
        try loop.run { [loop = loop!] in
            try await serving(Self.router, on: loop) { server in try await body(Int(server.address.port), loop) }
        }
    }

    /// Python sends 32 MiB as one message of 1 MiB fragments while the
    /// route leaves it unread for 300 ms: the send cannot finish before the
    /// route reads (the server stopped reading past 256 KiB held), and the
    /// route counts every byte. Small messages around it come whole.
    func testReceivedStream_HoldsTheReadingWhileUnread() throws {
        let script = """
            import asyncio, sys, time
            from websockets.asyncio.client import connect
            async def main():
                async with connect(f"ws://127.0.0.1:{sys.argv[1]}/sum", max_size=2**26, compression=None) as ws:
                    await ws.send(b"x" * 1000)
                    print(await ws.recv())
                    async def fragments():
                        for _ in range(32):
                            yield b"y" * (1 << 20)
                    started = time.monotonic()
                    await ws.send(fragments())
                    held = time.monotonic() - started
                    print(await ws.recv(), held >= 0.25)
                    await ws.send("z")
                    print(await ws.recv())
            asyncio.run(main())
            """
        let output = try withServer { port, loop in try await loop.python(script, ["\(port)"]) }
        XCTAssertEqual(output, "whole 1000\nstream binary 33554432 True\nwhole 1\n")
    }

    /// A stream echoed: Python's message of 3 MiB (random bytes, in 100 KiB
    /// fragments, and a text of 200 KiB in one frame) comes back byte for
    /// byte through the route's `send(.stream)`.
    func testStreamEcho_ToPython() throws {
        let script = """
            import asyncio, os, sys
            from websockets.asyncio.client import connect
            async def main():
                async with connect(f"ws://127.0.0.1:{sys.argv[1]}/echo", max_size=2**26) as ws:
                    data = os.urandom(3 << 20)
                    async def fragments():
                        for at in range(0, len(data), 100 << 10):
                            yield data[at:at + (100 << 10)]
                    await ws.send(fragments())
                    print(await ws.recv() == data)
                    text = "é" * (100 << 10)
                    await ws.send(text)
                    print(await ws.recv() == text)
            asyncio.run(main())
            """
        let output = try withServer { port, loop in try await loop.python(script, ["\(port)"]) }
        XCTAssertEqual(output, "True\nTrue\n")
    }

    /// RxUV's client sends a `.stream` of five 100 KiB buffers and, before
    /// it ends, a whole message: the whole one waits for the stream's end,
    /// so the route sees the stream first, then it.
    func testSentStream_OthersWaitBehindIt() throws {
        let replies = try withServer { port, loop in
            let client = HTTPClient(loop: loop)
            do {
                let socket = try await client.rx.webSocket("ws://127.0.0.1:\(port)/sum", options: Self.options).value
                var received = socket.messages.values.makeAsyncIterator()
                let buffers = Observable<Int>.interval(.milliseconds(5), scheduler: loop).take(5)
                    .map { _ in ByteBuffer([UInt8](repeating: 7, count: 100 << 10)) }
                let streamed = socket.send(.stream(WebSocketMessageStream(opcode: .binary, bytes: buffers)))
                let whole = socket.send(.text("after"))
                async let first: Void = streamed.value
                async let second: Void = whole.value
                _ = try await (first, second)
                var replies: [String] = []
                for _ in 0..<2 {
                    if case .text(let text)? = try await received.next() { replies.append(text) }
                }
                socket.close()
                _ = try await socket.closed.value
                try await client.shutdown().value
                return replies
            } catch {
                try? await client.shutdown().value
                throw error
            }
        }
        XCTAssertEqual(replies, ["stream binary 512000", "whole 5"])
    }
}
