import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTestSupport
import XCTest

/// Seeded random frames after a valid preface, on real connections: frames
/// of every type (and unknown ones) with random flags, streams and
/// payloads, some of them well-formed request heads, so that both the
/// session's refusals and the streams' handling are reached. Nothing may
/// crash or stay open: every connection ends once the client has said
/// everything (half-closed); the server answers a real client after all
/// of them, and the leak gate finds every object gone.
final class HTTP2RandomFramesTests: BridgeTestCase {
    /// HTTP/2's client preface and an empty SETTINGS.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(type: 0x4, flags: 0, stream: 0, payload: [])

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// A request head in HPACK's static table only: GET (0x82), http
    /// (0x86), / or /index.html (0x84, 0x85), and an authority literal.
    static func requestHead(_ generator: inout SeededGenerator) -> [UInt8] {
        [0x82, 0x86, Bool.random(using: &generator) ? 0x84 : 0x85, 0x41, 0x01, UInt8(ascii: "x")]
    }

    static func randomFrames(_ generator: inout SeededGenerator) -> [UInt8] {
        var bytes = preface
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
            let stream: UInt32 = [0, 1, 1, 3, 5, UInt32.random(in: 0...0x7FFF_FFFF, using: &generator)].randomElement(using: &generator)!
            let type: UInt8 = Int.random(in: 0..<10, using: &generator) == 0 ? UInt8.random(in: 0...0xFF, using: &generator) : UInt8.random(in: 0...9, using: &generator)
            var payload = (0..<Int.random(in: 0...48, using: &generator)).map { _ in UInt8.random(in: 0...0xFF, using: &generator) }
            var flags = UInt8.random(in: 0...0xFF, using: &generator)
            if type == 0x1, Bool.random(using: &generator) {
                // A well-formed head: END_HEADERS, maybe END_STREAM, no padding or priority.
                payload = requestHead(&generator)
                flags = 0x4 | (Bool.random(using: &generator) ? 0x1 : 0)
            }
            bytes += frame(type: type, flags: flags, stream: stream, payload: payload)
        }
        return bytes
    }

    func testRandomFramesAfterThePreface_NeverCrashOrHang_AndTheServerServesOn() throws {
        var generator = SeededGenerator(seed: 0x4854_5450_325F_4652)
        let cases = (0..<1000).map { _ in Self.randomFrames(&generator) }
        let handled = Shared(0)
        var router = HTTPRouter()
        router.get("/") { _ in
            handled.mutate { $0 += 1 }
            return .just(.text("root"))
        }
        router.get("/index.html") { request in
            handled.mutate { $0 += 1 }
            return request.body.collect(upTo: 1024).map { _ in .text("index") }
        }
        let (received, output) = try withHTTP2Server(handler: router.handler) { [loop = loop!] server in
            var received: [Int] = []
            for bytes in cases {
                let client = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
                try await client.write(ByteBuffer(bytes)).value
                try await client.shutdown().value
                // The server ends every connection (a reset is an end too,
                // counted -1): its reading completes within the timeout.
                received.append(
                    try await client.rx.data.reduce(0) { $0 + $1.count }.catchAndReturn(-1).timeout(.seconds(5), scheduler: loop).asSingle().value)
                client.close()
            }
            let output = try await loop.run("curl", ["-sS", "--http2-prior-knowledge", "http://127.0.0.1:\(server.address.port)/"])
            return (received, output)
        }
        XCTAssertEqual(output, "root")
        // Every connection heard the server's SETTINGS at least (9 bytes of
        // frame header and its entries), unless reset; some of the random
        // heads reached the handler.
        XCTAssertEqual(received.filter { $0 >= 0 && $0 < 9 }, [], "a connection ended with less than the server's SETTINGS")
        XCTAssertGreaterThan(handled.value, 20, "random heads dispatched to the handler")
    }
}
