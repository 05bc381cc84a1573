import RxCore
import RxUV
import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketMessageDecoderTests: BridgeTestCase {
    private func frames(_ role: WebSocketRole, _ parts: [(fin: Bool, opcode: UInt8, payload: [UInt8])]) -> [UInt8] {
        parts.flatMap { wireFrame(fin: $0.fin, opcode: $0.opcode, payload: $0.payload, mask: role == .server ? testMask : nil) }
    }

    /// A conversation with fragments, pings between them and a close: the
    /// same events through `decodeFrames` under every cut into two reads,
    /// one byte at a time, and directly; then a clean end.
    func testDecode_SameEventsHoweverTheInputIsSplit() {
        for role in [WebSocketRole.server, .client] {
            let bytes = frames(
                role,
                [
                    (false, 0x1, Array("hé".utf8)), (true, 0x9, [1, 2]), (false, 0x0, [0xE2, 0x82]), (true, 0x0, [0xAC]),
                    (true, 0x2, [0, 255]), (false, 0x2, []), (true, 0xA, []), (true, 0x0, [7]),
                    (true, 0x8, [0x03, 0xE8] + Array("done".utf8)),
                ])
            let expected: [WebSocketEvent] = [
                .ping([1, 2]), .message(.text("hé€")), .message(.binary([0, 255])), .pong([]), .message(.binary([7])),
                .close(WebSocketClose(code: .normalClosure, reason: "done")),
            ]
            let decoder = WebSocketMessageDecoder(role: role)
            let direct = decodeDirectly(bytes, decoder)
            XCTAssertNil(direct.error, "\(role)")
            XCTAssertEqual(direct.frames, expected, "\(role)")
            for chunks in everySplit(bytes) {
                let decoded = decodeAll(chunks, decoder)
                XCTAssertNil(decoded.error, "\(role) \(chunks.map(\.count))")
                XCTAssertEqual(decoded.frames, expected, "\(role) \(chunks.map(\.count))")
            }
        }
    }

    /// The stream's end: clean after a close, whatever follows it (dropped
    /// unread, even bytes that are no frame); `abnormalClosure` before, with
    /// where it ended.
    func testDecode_EndOfTheStream() {
        let close = wireFrame(opcode: 0x8, payload: [0x03, 0xE8])
        let table: [(String, [UInt8], [WebSocketEvent], String?)] = [
            ("nothing", [], [], "the stream ended without a Close frame"),
            ("a message, no close", wireFrame(opcode: 0x1, payload: [0x61]), [.message(.text("a"))], "the stream ended without a Close frame"),
            ("inside a message", wireFrame(fin: false, opcode: 0x1, payload: [0x61]), [], "the stream ended inside a fragmented message"),
            ("inside a frame", Array(wireFrame(opcode: 0x2, payload: [1, 2, 3]).dropLast()), [], "the stream ended inside a frame (4 bytes of it)"),
            ("close", close, [.close(WebSocketClose(code: .normalClosure))], nil),
            ("garbage after the close", close + [0xFF, 0xFF, 0x00, 0x13], [.close(WebSocketClose(code: .normalClosure))], nil),
            ("a frame after the close", close + wireFrame(opcode: 0x1, payload: [0x61]), [.close(WebSocketClose(code: .normalClosure))], nil),
        ]
        for (name, bytes, events, reason) in table {
            for chunks in [bytes.isEmpty ? [] : [ByteBuffer(bytes)], bytes.map { ByteBuffer([$0]) }] {
                let decoded = decodeAll(chunks, WebSocketMessageDecoder(role: .client))
                XCTAssertEqual(decoded.frames, events, name)
                XCTAssertEqual(decoded.protocolError, reason.map { WebSocketProtocolError(closeCode: .abnormalClosure, reason: $0) }, name)
            }
        }
    }

    /// A data frame that a message's rules or its limit refuse is refused
    /// from its header, with none of its payload sent yet; frame-level
    /// violations pass through with their codes.
    func testDecode_RefusesFromTheHeader() {
        let decoder = WebSocketMessageDecoder(role: .client, maxFrameLength: 100, maxMessageLength: 150)
        let table: [(String, [UInt8], WebSocketCloseCode, String)] = [
            ("continuation first", [0x80, 0x05], .protocolError, "a continuation frame with no message begun"),
            (
                "text inside text", wireFrame(fin: false, opcode: 0x1, payload: [0x61]) + [0x81, 0x05], .protocolError,
                "a text frame inside an unfinished text message"
            ),
            (
                "message past its limit", wireFrame(fin: false, opcode: 0x2, payload: Array(repeating: 0, count: 100)) + [0x80, 0x33], .messageTooBig,
                "a message of more than 150 bytes (100 + a 51-byte frame)"
            ),
            ("frame past its limit", [0x82, 0x65], .messageTooBig, "a frame of 101 bytes, over the limit of 100"),
            ("reserved opcode", [0x84, 0x00], .protocolError, "reserved opcode 0x4"),
            ("bad UTF-8", wireFrame(opcode: 0x1, payload: [0xC0, 0x80]), .invalidFramePayloadData, "a text message that is not UTF-8: invalid UTF-8 at byte 0"),
        ]
        for (name, bytes, code, reason) in table {
            let decoded = decodeAll([ByteBuffer(bytes)], decoder)
            XCTAssertEqual(decoded.protocolError, WebSocketProtocolError(closeCode: code, reason: reason), name)
        }
        // At the bound: a message of exactly 150 bytes in two frames.
        let exact = wireFrame(fin: false, opcode: 0x2, payload: Array(repeating: 0, count: 100)) + wireFrame(opcode: 0x0, payload: Array(repeating: 0, count: 50))
        let decoded = decodeAll([ByteBuffer(exact + wireFrame(opcode: 0x8))], decoder)
        XCTAssertNil(decoded.error)
        XCTAssertEqual(decoded.frames.first, .message(.binary(ByteBuffer([UInt8](repeating: 0, count: 150)))))
    }

    /// The decoder with the encoder of the other side: what a client sends,
    /// a server reads, and the other way round, messages fragmented by the
    /// sender.
    func testDecode_ReadsWhatTheEncoderWrites() throws {
        for role in [WebSocketRole.client, .server] {
            let encoder = WebSocketFrameEncoder(role: role, makeMaskingKey: { WebSocketMaskingKey(rawValue: 0xDEAD_BEEF) })
            let sent: [WebSocketFrame] = [
                WebSocketFrame(fin: false, opcode: .text, payload: ByteBuffer(string: "frag")),
                WebSocketFrame(opcode: .ping, payload: ByteBuffer(string: "are you there")),
                WebSocketFrame(opcode: .continuation, payload: ByteBuffer(string: "mented ✓")),
                WebSocketFrame(opcode: .binary, payload: ByteBuffer([UInt8](repeating: 0xAB, count: 70_000))),
                WebSocketFrame(opcode: .close, payload: [0x0F, 0xA0]),
            ]
            let bytes = try sent.map { try encoder.encode($0) }
            let decoded = decodeAll(bytes, WebSocketMessageDecoder(role: role == .client ? .server : .client))
            XCTAssertNil(decoded.error)
            XCTAssertEqual(
                decoded.frames,
                [
                    .ping(ByteBuffer(string: "are you there")), .message(.text("fragmented ✓")),
                    .message(.binary(ByteBuffer([UInt8](repeating: 0xAB, count: 70_000)))), .close(WebSocketClose(code: WebSocketCloseCode(4000))),
                ])
        }
    }

    /// Over a connection: a client's frames, written with its encoder on
    /// one end of an in-memory stream pair, read as events by a server's
    /// decoder on the other end's `rx.data`; the client's close and its
    /// half-close end the sequence cleanly.
    func testDecode_OverAnInMemoryConnection() {
        let pair = InMemoryStream.pair(on: loop)
        let events = Shared<[WebSocketEvent]>([])
        let ending = Shared<String>("")
        let encoder = WebSocketFrameEncoder(role: .client, makeMaskingKey: { WebSocketMaskingKey(rawValue: 0x1234_5678) })
        let frames: [WebSocketFrame] = [
            WebSocketFrame(fin: false, opcode: .text, payload: ByteBuffer(string: "over ")),
            WebSocketFrame(opcode: .ping, payload: [1]),
            WebSocketFrame(opcode: .continuation, payload: ByteBuffer(string: "the wire")),
            WebSocketFrame(opcode: .binary, payload: ByteBuffer([UInt8](repeating: 9, count: 100_000))),
            WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]),
        ]
        loop.execute {
            _ = pair.server.rx.data.decodeFrames(WebSocketMessageDecoder(role: .server))
                .subscribe(
                    onNext: { event in events.mutate { $0.append(event) } }, onError: { error in ending.value = "\(error)" },
                    onCompleted: { ending.value = "completed" })
            for frame in frames { _ = pair.client.write(frame, using: encoder).subscribe() }
            _ = pair.client.shutdown().subscribe()
        }
        runLoop()
        XCTAssertEqual(
            events.value,
            [
                .ping([1]), .message(.text("over the wire")), .message(.binary(ByteBuffer([UInt8](repeating: 9, count: 100_000)))),
                .close(WebSocketClose(code: .normalClosure)),
            ])
        XCTAssertEqual(ending.value, "completed")
        pair.client.close(.now)
        pair.server.close(.now)
        runLoop()
    }
}
