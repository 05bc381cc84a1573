import RxCore
import RxUV
import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketFrameDecoderTests: BridgeTestCase {
    private func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    /// Every length form at its edges, for both roles (masked to a server,
    /// unmasked to a client): the same frame back, however it is cut.
    func testDecode_EveryLengthFormBothRoles() {
        for length in [0, 1, 125, 126, 127, 65535, 65536, 70000] {
            for role in [WebSocketRole.server, .client] {
                let bytes = wireFrame(opcode: 0x2, payload: payload(length), mask: role == .server ? testMask : nil)
                let expected = WebSocketFrame(opcode: .binary, payload: ByteBuffer(payload(length)))
                let decoder = WebSocketFrameDecoder(role: role)
                var cuts: [[Int]] = [[], [1], [2], [3], [bytes.count - 1], [4, 10, 14]]
                if length < 200 { cuts += (1..<bytes.count).map { [$0] } }
                for cut in cuts {
                    let decoded = decodeAll(split(bytes, at: cut), decoder)
                    XCTAssertNil(decoded.error, "\(role) \(length) cut \(cut)")
                    XCTAssertEqual(decoded.frames, [expected], "\(role) \(length) cut \(cut)")
                }
                XCTAssertEqual(decodeDirectly(bytes, decoder).frames, [expected], "\(role) \(length) directly")
            }
        }
    }

    /// RFC 6455 §5.7's examples, byte for byte.
    func testDecode_RFCExamples() {
        let hello = ByteBuffer(string: "Hello")
        let table: [(String, WebSocketRole, [UInt8], WebSocketFrame)] = [
            ("unmasked text", .client, [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], WebSocketFrame(opcode: .text, payload: hello)),
            (
                "masked text", .server, [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58],
                WebSocketFrame(opcode: .text, payload: hello)
            ),
            ("first fragment", .client, [0x01, 0x03, 0x48, 0x65, 0x6C], WebSocketFrame(fin: false, opcode: .text, payload: ByteBuffer(string: "Hel"))),
            ("last fragment", .client, [0x80, 0x02, 0x6C, 0x6F], WebSocketFrame(opcode: .continuation, payload: ByteBuffer(string: "lo"))),
            (
                "masked ping", .server, [0x89, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58],
                WebSocketFrame(opcode: .ping, payload: hello)
            ),
            ("unmasked pong", .client, [0x8A, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], WebSocketFrame(opcode: .pong, payload: hello)),
        ]
        for (name, role, bytes, frame) in table {
            let decoded = decodeAll([ByteBuffer(bytes)], WebSocketFrameDecoder(role: role))
            XCTAssertEqual(decoded.frames, [frame], name)
            XCTAssertNil(decoded.error, name)
        }
    }

    /// Every refusal, with its close code and reason, from the smallest
    /// input that shows it; also fed one byte at a time.
    func testDecode_EveryViolationItsCloseCodeAndReason() {
        let long = payload(130)
        let table: [(String, WebSocketRole, [UInt8], WebSocketCloseCode, String)] = [
            ("reserved opcode 0x3", .client, [0x83, 0x00], .protocolError, "reserved opcode 0x3"),
            ("reserved opcode 0x7", .client, [0x87, 0x00], .protocolError, "reserved opcode 0x7"),
            ("reserved opcode 0xB", .client, [0x8B, 0x00], .protocolError, "reserved opcode 0xB"),
            ("reserved opcode 0xF", .client, [0x8F, 0x00], .protocolError, "reserved opcode 0xF"),
            ("rsv1", .client, [0xC1, 0x00], .protocolError, "reserved bits 0x40 set, which no extension negotiated"),
            ("rsv2", .client, [0xA1, 0x00], .protocolError, "reserved bits 0x20 set, which no extension negotiated"),
            ("rsv3", .client, [0x91, 0x00], .protocolError, "reserved bits 0x10 set, which no extension negotiated"),
            ("fragmented ping", .client, [0x09, 0x00], .protocolError, "a fragmented control frame (ping without FIN)"),
            ("fragmented close", .client, [0x08, 0x00], .protocolError, "a fragmented control frame (close without FIN)"),
            ("ping of 126", .client, wireFrame(opcode: 0x9, payload: long), .protocolError, "a ping frame longer than 125 bytes"),
            ("close of 126 (16-bit)", .client, [0x88, 126, 0, 126], .protocolError, "a close frame longer than 125 bytes"),
            ("pong, 64-bit length", .client, [0x8A, 127], .protocolError, "a pong frame longer than 125 bytes"),
            ("unmasked to a server", .server, [0x81, 0x00], .protocolError, "an unmasked frame from the client"),
            ("masked to a client", .client, [0x81, 0x80, 1, 2, 3, 4], .protocolError, "a masked frame from the server"),
            (
                "16-bit length of 125", .client, wireFrame(opcode: 0x2, payload: payload(125), lengthForm: 16), .protocolError,
                "a 16-bit length of 125, which 7 bits carry (the shortest form must be used)"
            ),
            (
                "16-bit length of 0", .client, [0x82, 126, 0, 0], .protocolError,
                "a 16-bit length of 0, which 7 bits carry (the shortest form must be used)"
            ),
            (
                "64-bit length of 65535", .client, wireFrame(opcode: 0x2, payload: payload(65535), lengthForm: 64), .protocolError,
                "a 64-bit length of 65535, which 16 bits carry (the shortest form must be used)"
            ),
            (
                "64-bit length of 5", .client, [0x82, 127, 0, 0, 0, 0, 0, 0, 0, 5], .protocolError,
                "a 64-bit length of 5, which 16 bits carry (the shortest form must be used)"
            ),
            (
                "64-bit length, top bit", .client, [0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0], .protocolError,
                "a 64-bit length with its most significant bit set"
            ),
            (
                "64-bit length, all ones", .server, [0x82, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .protocolError,
                "a 64-bit length with its most significant bit set"
            ),
            (
                "frame over the limit (16-bit)", .client, [0x82, 126, 0x01, 0x00], .messageTooBig,
                "a frame of 256 bytes, over the limit of 255"
            ),
            (
                "frame over the limit (64-bit)", .server, [0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .messageTooBig,
                "a frame of 9223372036854775807 bytes, over the limit of 255"
            ),
            ("truncated header", .client, [0x82], .abnormalClosure, "the stream ended inside a frame (1 bytes of it)"),
            ("truncated length", .client, [0x82, 126, 0x01], .abnormalClosure, "the stream ended inside a frame (3 bytes of it)"),
            ("truncated mask", .server, [0x82, 0x81, 1, 2], .abnormalClosure, "the stream ended inside a frame (4 bytes of it)"),
            ("truncated payload", .client, [0x82, 0x03, 1, 2], .abnormalClosure, "the stream ended inside a frame (4 bytes of it)"),
        ]
        for (name, role, bytes, code, reason) in table {
            let decoder = WebSocketFrameDecoder(role: role, maxFrameLength: 255)
            for chunks in [[ByteBuffer(bytes)], bytes.map { ByteBuffer([$0]) }] {
                let decoded = decodeAll(chunks, decoder)
                XCTAssertEqual(decoded.frames, [], name)
                XCTAssertEqual(decoded.protocolError, WebSocketProtocolError(closeCode: code, reason: reason), name)
            }
            XCTAssertEqual(decodeDirectly(bytes, decoder).protocolError?.closeCode, code, "\(name) directly")
        }
    }

    /// A frame of exactly `maxFrameLength` bytes passes; one byte more is
    /// refused from its header, before any payload came.
    func testDecode_LimitAtTheBoundAndOnePast() {
        for limit in [0, 125, 126, 65535, 65536] {
            let decoder = WebSocketFrameDecoder(role: .server, maxFrameLength: limit)
            let atLimit = wireFrame(opcode: 0x2, payload: payload(limit), mask: testMask)
            XCTAssertEqual(decodeAll([ByteBuffer(atLimit)], decoder).frames.map(\.payload.count), [limit], "limit \(limit)")
            let past = wireFrame(opcode: 0x2, payload: payload(limit + 1), mask: testMask)
            let headerOnly = Array(past.prefix(past.count - limit - 1 - 4))
            let refused = decodeAll([ByteBuffer(headerOnly)], decoder)
            XCTAssertEqual(refused.protocolError?.closeCode, .messageTooBig, "limit \(limit)")
        }
    }

    /// Reserved bits pass when allowed (permessage-deflate's RSV1), and
    /// come out on the frame; the others are still refused.
    func testDecode_AllowedReservedBits() {
        let decoder = WebSocketFrameDecoder(role: .client, allowedReservedBits: .rsv1)
        let decoded = decodeAll([ByteBuffer(wireFrame(reserved: 0x40, opcode: 0x1, payload: [1, 2]))], decoder)
        XCTAssertEqual(decoded.frames, [WebSocketFrame(reservedBits: .rsv1, opcode: .text, payload: [1, 2])])
        let refused = decodeAll([ByteBuffer(wireFrame(reserved: 0x60, opcode: 0x1))], decoder)
        XCTAssertEqual(refused.protocolError?.reason, "reserved bits 0x20 set, which no extension negotiated")
    }

    /// A stream of several frames gives the same frames through
    /// `decodeFrames` under every cut into two reads, one byte at a time,
    /// and directly; an unmasked payload inside one read is a slice of it.
    func testDecode_SameFramesHoweverTheInputIsSplit() {
        for role in [WebSocketRole.server, .client] {
            let mask = role == .server ? testMask : nil
            var bytes: [UInt8] = []
            bytes += wireFrame(fin: false, opcode: 0x1, payload: Array("héllo".utf8), mask: mask)
            bytes += wireFrame(opcode: 0x9, payload: [9, 9], mask: mask)
            bytes += wireFrame(opcode: 0x0, payload: payload(130), mask: mask)
            bytes += wireFrame(opcode: 0x2, payload: [], mask: mask)
            bytes += wireFrame(opcode: 0x8, payload: [0x03, 0xE8], mask: mask)
            let decoder = WebSocketFrameDecoder(role: role)
            let expected = decodeDirectly(bytes, decoder)
            XCTAssertNil(expected.error)
            XCTAssertEqual(expected.frames.map(\.opcode), [.text, .ping, .continuation, .binary, .close])
            XCTAssertEqual(expected.frames.map(\.fin), [false, true, true, true, true])
            XCTAssertEqual(expected.frames[2].payload, ByteBuffer(payload(130)))
            for chunks in everySplit(bytes) {
                let decoded = decodeAll(chunks, decoder)
                XCTAssertNil(decoded.error, "\(role) \(chunks.map(\.count))")
                XCTAssertEqual(decoded.frames, expected.frames, "\(role) \(chunks.map(\.count))")
            }
        }
        let read = ByteBuffer(wireFrame(opcode: 0x2, payload: [1, 2, 3]))
        let frame = decodeAll([read], WebSocketFrameDecoder(role: .client)).frames.first
        XCTAssertEqual(frame?.payload.sharesStorage(with: read), true, "an unmasked payload is a slice of the read")
    }

    /// A stream ending between frames completes; the source's error passes.
    func testDecode_EndsAndErrors() {
        let decoder = WebSocketFrameDecoder(role: .client)
        XCTAssertNil(decodeAll([], decoder).error)
        XCTAssertNil(decodeAll([ByteBuffer(wireFrame(opcode: 0x2, payload: [1]))], decoder).error)
        var failure: (any Error)?
        _ = Observable<ByteBuffer>.error(FramingError.delimiterInLine).decodeFrames(decoder).subscribe(onError: { failure = $0 })
        XCTAssertEqual(failure as? FramingError, .delimiterInLine)
    }
}
