import RxCore
import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVWebSocket

/// permessage-deflate's two halves: RFC 7692's own examples through the
/// message decoder (however the bytes are cut), the deflater's messages
/// read back under every agreement, and the inflater's refusals.
final class WebSocketInflaterTests: BridgeTestCase {
    private let agreed = WebSocketDeflateParameters()

    /// RFC 7692 §7.2.3's examples, as a client receives them: "Hello"
    /// compressed, the same again with the first's window (context
    /// takeover), in two fragments, in a stored block, and with a final
    /// block (after which the window starts over), an empty message as
    /// `00` and as no byte at all, then a plain message.
    func testRFCExamples_SameEventsHoweverTheInputIsSplit() {
        let bytes: [UInt8] =
            wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
            + wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xF2, 0x00, 0x11, 0x00, 0x00])
            + wireFrame(fin: false, reserved: 0x40, opcode: 0x1, payload: [0xF2, 0x48, 0xCD])
            + wireFrame(opcode: 0x0, payload: [0xC9, 0xC9, 0x07, 0x00])
            + wireFrame(reserved: 0x40, opcode: 0x1, payload: [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00])
            + wireFrame(reserved: 0x40, opcode: 0x2, payload: [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
            + wireFrame(reserved: 0x40, opcode: 0x2, payload: [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
            + wireFrame(reserved: 0x40, opcode: 0x1, payload: [0x00])
            + wireFrame(reserved: 0x40, opcode: 0x2, payload: [])
            + wireFrame(opcode: 0x1, payload: Array("plain".utf8)) + wireFrame(opcode: 0x8, payload: [0x03, 0xE8])
        let hello = ByteBuffer(Array("Hello".utf8))
        let expected: [WebSocketEvent] = [
            .message(.text("Hello")), .message(.text("Hello")), .message(.text("Hello")), .message(.text("Hello")),
            .message(.binary(hello)), .message(.binary(hello)), .message(.text("")), .message(.binary([])), .message(.text("plain")),
            .close(WebSocketClose(code: .normalClosure)),
        ]
        let decoder = WebSocketMessageDecoder(role: .client, deflate: agreed)
        XCTAssertEqual(decodeDirectly(bytes, decoder).frames, expected)
        for chunks in everySplit(bytes) {
            let decoded = decodeAll(chunks, decoder)
            XCTAssertNil(decoded.error, "\(chunks.map(\.count))")
            XCTAssertEqual(decoded.frames, expected, "\(chunks.map(\.count))")
        }
    }

    /// Every side's messages, compressed by its deflater under each
    /// agreement, read back by the other side's decoder: the same messages,
    /// the repetitive ones much smaller on the wire.
    func testDeflater_ReadBackUnderEveryAgreement() throws {
        var generator = SeededGenerator(seed: 7)
        let random = ByteBuffer((0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let repetitive = ByteBuffer(Array(String(repeating: "the same words again, ", count: 3_000).utf8))
        let messages: [WebSocketMessage] = [
            .text(""), .text(""), .text("Hello"), .binary([]), .binary(random), .text(String(repeating: "é€", count: 20_000)), .binary(repetitive), .binary(repetitive),
            .binary(random.slice(at: 0, count: 10)),
        ]
        let agreements = [
            WebSocketDeflateParameters(),
            WebSocketDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true),
            WebSocketDeflateParameters(serverMaxWindowBits: 9, clientMaxWindowBits: 10),
            WebSocketDeflateParameters(clientNoContextTakeover: true, serverMaxWindowBits: 12, clientMaxWindowBits: 15),
        ]
        for parameters in agreements {
            for sender in [WebSocketRole.server, .client] {
                let receiver: WebSocketRole = sender == .server ? .client : .server
                let compression = WebSocketCompression(maxWindowBits: 15, level: 9, memoryLevel: 9)
                let deflater = WebSocketDeflater(parameters, role: sender, compression: compression)
                let encoder = WebSocketFrameEncoder(role: sender)
                var wire: [ByteBuffer] = []
                var wireLength = 0
                for message in messages {
                    let plain: WebSocketFrame
                    switch message {
                    case .text(let text): plain = WebSocketFrame(opcode: .text, payload: ByteBuffer(string: text))
                    case .binary(let bytes): plain = WebSocketFrame(opcode: .binary, payload: bytes)
                    case .stream: continue
                    }
                    let compressed = try XCTUnwrap(deflater.compress(plain.payload))
                    wireLength += compressed.count
                    wire.append(try encoder.encode(WebSocketFrame(reservedBits: .rsv1, opcode: plain.opcode, payload: compressed)))
                }
                wire.append(try encoder.encode(WebSocketFrame(opcode: .close)))
                let decoded = decodeAll(wire, WebSocketMessageDecoder(role: receiver, deflate: parameters))
                XCTAssertNil(decoded.error, "\(parameters) from the \(sender)")
                XCTAssertEqual(
                    decoded.frames, messages.map { .message($0) } + [.close(WebSocketClose(code: .noStatusReceived))], "\(parameters) from the \(sender)")
                let plainLength = messages.reduce(0) { $0 + $1.byteCount }
                XCTAssertLessThan(wireLength, plainLength * 3 / 4, "\(parameters) from the \(sender)")
            }
        }
    }

    /// What goes uncompressed: a message under `minimumLength`, and every
    /// message when the agreed window is 8 bits.
    func testDeflater_SendsSomeMessagesUncompressed() {
        let short = WebSocketDeflater(agreed, role: .server, compression: WebSocketCompression(minimumLength: 10))
        XCTAssertNil(short.compress(ByteBuffer(Array("123456789".utf8))))
        XCTAssertNotNil(short.compress(ByteBuffer(Array("1234567890".utf8))))
        let eight = WebSocketDeflater(WebSocketDeflateParameters(serverMaxWindowBits: 8), role: .server, compression: WebSocketCompression())
        XCTAssertNil(eight.compress(ByteBuffer(Array("anything at all".utf8))))
    }

    /// The inflater's bound is exact (a message of `maxMessageLength`
    /// passes, one byte more is 1009, even in fragments), and it refuses
    /// what RFC 7692 forbids.
    func testInflater_BoundAndRefusals() throws {
        let deflater = WebSocketDeflater(agreed, role: .client, compression: WebSocketCompression(maxWindowBits: 15))
        let exact = try XCTUnwrap(deflater.compress(ByteBuffer([UInt8](repeating: 0x61, count: 1_000))))
        let over = try XCTUnwrap(WebSocketDeflater(agreed, role: .client, compression: WebSocketCompression()).compress(ByteBuffer([UInt8](repeating: 0x61, count: 1_001))))
        func decode(_ bytes: [UInt8]) -> Decoded<WebSocketEvent> {
            decodeAll([ByteBuffer(bytes)], WebSocketMessageDecoder(role: .server, maxMessageLength: 1_000, deflate: agreed))
        }
        XCTAssertEqual(decode(wireFrame(reserved: 0x40, opcode: 0x2, payload: Array(exact), mask: testMask)).frames.count, 1)
        let notText = try XCTUnwrap(WebSocketDeflater(agreed, role: .client, compression: WebSocketCompression()).compress(ByteBuffer([0x6F, 0x6B, 0xFF])))
        let half = over.count / 2
        let table: [(String, [UInt8], WebSocketCloseCode)] = [
            ("over by one", wireFrame(reserved: 0x40, opcode: 0x2, payload: Array(over), mask: testMask), .messageTooBig),
            (
                "over in fragments",
                wireFrame(fin: false, reserved: 0x40, opcode: 0x2, payload: Array(over.slice(at: 0, count: half)), mask: testMask)
                    + wireFrame(opcode: 0x0, payload: Array(over.slice(at: half, count: over.count - half)), mask: testMask), .messageTooBig
            ),
            ("corrupt", wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xFF, 0xFF, 0xFF], mask: testMask), .invalidFramePayloadData),
            (
                "after the final block", wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x41], mask: testMask),
                .invalidFramePayloadData
            ),
            ("RSV1 on a ping", wireFrame(reserved: 0x40, opcode: 0x9, payload: [], mask: testMask), .protocolError),
            (
                "RSV1 on a continuation",
                wireFrame(fin: false, opcode: 0x1, payload: [0x61], mask: testMask) + wireFrame(reserved: 0x40, opcode: 0x0, payload: [0x00], mask: testMask),
                .protocolError
            ),
            ("RSV2", wireFrame(reserved: 0x20, opcode: 0x1, payload: [0x61], mask: testMask), .protocolError),
            ("not UTF-8 once inflated", wireFrame(reserved: 0x40, opcode: 0x1, payload: Array(notText), mask: testMask), .invalidFramePayloadData),
        ]
        for (name, bytes, code) in table {
            XCTAssertEqual(decode(bytes).protocolError?.closeCode, code, name)
        }
    }

    /// A decoder copied in the middle of a conversation goes on as the
    /// original does (zlib's window is copied, not shared): both read the
    /// second "Hello", which refers to the first's bytes.
    func testDecoder_CopiesDoNotShareTheWindow() throws {
        var original = WebSocketMessageDecoder(role: .client, deflate: agreed)
        let first = ByteBuffer(wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
        var reader = ByteBuffer.Reader(first)
        XCTAssertEqual(try original.decode(&reader), .message(.text("Hello")))
        var copy = original
        let second = ByteBuffer(wireFrame(reserved: 0x40, opcode: 0x1, payload: [0xF2, 0x00, 0x11, 0x00, 0x00]))
        var readerA = ByteBuffer.Reader(second)
        var readerB = ByteBuffer.Reader(second)
        XCTAssertEqual(try copy.decode(&readerA), .message(.text("Hello")))
        XCTAssertEqual(try original.decode(&readerB), .message(.text("Hello")))
    }
}

extension WebSocketDeflater {
    /// `compress(_:)` over a buffer's bytes, as a socket passes a message's.
    fileprivate func compress(_ payload: ByteBuffer) -> ByteBuffer? {
        payload.withUnsafeBytes { compress($0) }
    }
}
