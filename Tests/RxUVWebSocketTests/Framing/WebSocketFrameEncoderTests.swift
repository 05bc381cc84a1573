import RxCore
import RxUV
import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketFrameEncoderTests: BridgeTestCase {
    private let rfcKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    /// RFC 6455 §5.7's examples, byte for byte, from both roles.
    func testEncode_RFCExamples() throws {
        let server = WebSocketFrameEncoder(role: .server)
        let client = WebSocketFrameEncoder(role: .client, makeMaskingKey: { [rfcKey] in rfcKey })
        let hello = ByteBuffer(string: "Hello")
        let table: [(String, WebSocketFrameEncoder, WebSocketFrame, [UInt8])] = [
            ("unmasked text", server, WebSocketFrame(opcode: .text, payload: hello), [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]),
            ("masked text", client, WebSocketFrame(opcode: .text, payload: hello), [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]),
            ("first fragment", server, WebSocketFrame(fin: false, opcode: .text, payload: ByteBuffer(string: "Hel")), [0x01, 0x03, 0x48, 0x65, 0x6C]),
            ("last fragment", server, WebSocketFrame(opcode: .continuation, payload: ByteBuffer(string: "lo")), [0x80, 0x02, 0x6C, 0x6F]),
            ("unmasked ping", server, WebSocketFrame(opcode: .ping, payload: hello), [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]),
            ("masked empty close", client, WebSocketFrame(opcode: .close), [0x88, 0x80, 0x37, 0xFA, 0x21, 0x3D]),
            ("rsv1", server, WebSocketFrame(reservedBits: .rsv1, opcode: .binary, payload: [7]), [0xC2, 0x01, 0x07]),
            ("binary 256 (16-bit)", server, WebSocketFrame(opcode: .binary, payload: ByteBuffer([UInt8](repeating: 0, count: 256))), [0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 0, count: 256)),
        ]
        for (name, encoder, frame, bytes) in table {
            XCTAssertEqual(Array(try encoder.encode(frame)), bytes, name)
        }
    }

    /// Each length form at its edges, both roles: the shortest length form,
    /// and the decoder of the other side gives the frame back.
    func testEncode_RoundTripsEveryLengthForm() throws {
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 125, 126, 65535, 65536, 100_000] {
            let payload = ByteBuffer((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            for role in [WebSocketRole.client, .server] {
                let encoder = WebSocketFrameEncoder(role: role, makeMaskingKey: { WebSocketMaskingKey(rawValue: 0xA1B2_C3D4) })
                let frame = WebSocketFrame(fin: length % 2 == 0, opcode: .binary, payload: payload)
                let bytes = try encoder.encode(frame)
                let headerLength = (length <= 125 ? 2 : length <= 65535 ? 4 : 10) + (role == .client ? 4 : 0)
                XCTAssertEqual(bytes.count, headerLength + length, "\(role) \(length)")
                let peer = WebSocketFrameDecoder(role: role == .client ? .server : .client, maxFrameLength: 1 << 20)
                XCTAssertEqual(decodeAll([bytes], peer).frames, [frame], "\(role) \(length)")
            }
        }
    }

    /// `encode(_:)`'s one buffer holds what `encode(_:into:)`'s two do, in
    /// every length form, both roles, each reserved bit and opcode a socket
    /// sends; and it refuses the same control frames.
    func testEncode_OneBufferHoldsTheTwoBuffersBytes() throws {
        for length in [0, 1, 125, 126, 65535, 65536] {
            let payload = ByteBuffer((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            for role in [WebSocketRole.client, .server] {
                let encoder = WebSocketFrameEncoder(role: role, makeMaskingKey: { WebSocketMaskingKey(rawValue: 0x0102_0304) })
                for (opcode, reservedBits) in [(WebSocketOpcode.text, WebSocketReservedBits()), (.binary, .rsv1), (.continuation, [])] {
                    let frame = WebSocketFrame(fin: length != 1, reservedBits: reservedBits, opcode: opcode, payload: payload)
                    var buffers: [ByteBuffer] = []
                    try encoder.encode(frame, into: &buffers)
                    XCTAssertEqual(Array(try encoder.encode(frame)), buffers.flatMap { Array($0) }, "\(role) \(opcode) \(length)")
                }
            }
        }
        XCTAssertThrowsError(try WebSocketFrameEncoder(role: .client).encode(WebSocketFrame(fin: false, opcode: .pong))) { error in
            XCTAssertEqual(error as? WebSocketEncodingError, .fragmentedControlFrame(.pong))
        }
    }

    /// A server's payload goes as it is (no copy); a client's header and
    /// masked payload are two buffers; each frame takes a fresh key.
    func testEncode_BuffersAndKeys() throws {
        let payload = ByteBuffer(string: "payload")
        var buffers: [ByteBuffer] = []
        try WebSocketFrameEncoder(role: .server).encode(WebSocketFrame(opcode: .binary, payload: payload), into: &buffers)
        XCTAssertEqual(buffers.count, 2)
        XCTAssertTrue(buffers[1].sharesStorage(with: payload))
        let keys = Shared<[WebSocketMaskingKey]>([WebSocketMaskingKey(1, 2, 3, 4), WebSocketMaskingKey(5, 6, 7, 8)])
        let client = WebSocketFrameEncoder(
            role: .client,
            makeMaskingKey: {
                var key = WebSocketMaskingKey(rawValue: 0)
                keys.mutate { key = $0.removeFirst() }
                return key
            })
        let first = try client.encode(WebSocketFrame(opcode: .text, payload: payload))
        let second = try client.encode(WebSocketFrame(opcode: .text, payload: payload))
        XCTAssertEqual(Array(first[2..<6]), [1, 2, 3, 4])
        XCTAssertEqual(Array(second[2..<6]), [5, 6, 7, 8])
    }

    /// Control frames the protocol forbids are refused, nothing appended.
    func testEncode_RefusesForbiddenControlFrames() {
        let encoder = WebSocketFrameEncoder(role: .server)
        let table: [(WebSocketFrame, WebSocketEncodingError, String)] = [
            (WebSocketFrame(fin: false, opcode: .ping), .fragmentedControlFrame(.ping), "a ping frame without FIN: control frames are never fragmented"),
            (
                WebSocketFrame(opcode: .close, payload: ByteBuffer([UInt8](repeating: 0, count: 126))), .controlFrameTooLong(.close, length: 126),
                "a close frame of 126 bytes: control frames carry at most 125"
            ),
        ]
        for (frame, expected, description) in table {
            var buffers: [ByteBuffer] = []
            XCTAssertThrowsError(try encoder.encode(frame, into: &buffers)) { error in
                XCTAssertEqual(error as? WebSocketEncodingError, expected)
                XCTAssertEqual("\(error)", description)
            }
            XCTAssertEqual(buffers, [])
        }
        XCTAssertNoThrow(try encoder.encode(WebSocketFrame(opcode: .pong, payload: ByteBuffer([UInt8](repeating: 0, count: 125)))))
    }

    /// `encodeFrames` on an Observable of frames: one buffer each.
    func testEncode_AsOperator() {
        var out: [[UInt8]] = []
        _ = Observable.from([WebSocketFrame(opcode: .text, payload: ByteBuffer(string: "a")), WebSocketFrame(opcode: .close)])
            .encodeFrames(WebSocketFrameEncoder(role: .server))
            .subscribe(onNext: { out.append(Array($0)) })
        XCTAssertEqual(out, [[0x81, 0x01, 0x61], [0x88, 0x00]])
    }
}
