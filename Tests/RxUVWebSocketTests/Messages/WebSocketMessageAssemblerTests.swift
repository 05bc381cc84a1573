import RxUV
import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketMessageAssemblerTests: BridgeTestCase {
    private func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, payload: ByteBuffer(payload))
    }

    private func text(_ string: String, fin: Bool = true, _ opcode: WebSocketOpcode = .text) -> WebSocketFrame {
        frame(opcode, Array(string.utf8), fin: fin)
    }

    /// What the assembler makes of `frames`: the events, and the error that
    /// stopped it, if any.
    private func assemble(
        _ frames: [WebSocketFrame], maxMessageLength: Int = 64, streamingThreshold: Int? = nil
    ) -> (events: [WebSocketEvent], error: WebSocketProtocolError?) {
        var assembler = WebSocketMessageAssembler(maxMessageLength: maxMessageLength, streamingThreshold: streamingThreshold)
        var events: [WebSocketEvent] = []
        for frame in frames {
            do {
                if let event = try assembler.receive(frame) { events.append(event) }
            } catch {
                return (events, error)
            }
        }
        return (events, nil)
    }

    /// Whole and fragmented messages, control frames between fragments
    /// delivered at once, and the close that ends it all.
    func testReceive_MessagesAndControlFrames() {
        let table: [(String, [WebSocketFrame], [WebSocketEvent])] = [
            ("one text frame", [text("hello")], [.message(.text("hello"))]),
            ("one binary frame", [frame(.binary, [1, 2, 3])], [.message(.binary([1, 2, 3]))]),
            ("empty text", [text("")], [.message(.text(""))]),
            ("empty binary", [frame(.binary)], [.message(.binary([]))]),
            (
                "fragmented text with pings between", [text("hé", fin: false), frame(.ping, [1]), text("ll", fin: false, .continuation), frame(.pong), text("o", .continuation)],
                [.ping([1]), .pong([]), .message(.text("héllo"))]
            ),
            (
                "a character split across fragments", [frame(.text, [0x61, 0xE2], fin: false), frame(.continuation, [0x82], fin: false), frame(.continuation, [0xAC])],
                [.message(.text("a€"))]
            ),
            ("fragmented binary", [frame(.binary, [1], fin: false), frame(.continuation, [], fin: false), frame(.continuation, [2, 3])], [.message(.binary([1, 2, 3]))]),
            ("two messages", [text("a"), frame(.binary, [0])], [.message(.text("a")), .message(.binary([0]))]),
            ("close, no payload", [frame(.close)], [.close(WebSocketClose(code: .noStatusReceived))]),
            ("close with a code", [frame(.close, [0x03, 0xE8])], [.close(WebSocketClose(code: .normalClosure))]),
            ("close with a reason", [frame(.close, [0x0F, 0xA0] + Array("bye é".utf8))], [.close(WebSocketClose(code: WebSocketCloseCode(4000), reason: "bye é"))]),
            ("close inside a message", [text("a", fin: false), frame(.close, [0x03, 0xE9])], [.close(WebSocketClose(code: .goingAway))]),
            ("frames after the close are dropped", [frame(.close), text("late"), frame(.continuation), frame(.ping)], [.close(WebSocketClose(code: .noStatusReceived))]),
        ]
        for (name, frames, expected) in table {
            let result = assemble(frames)
            XCTAssertNil(result.error, name)
            XCTAssertEqual(result.events, expected, name)
        }
    }

    /// Past a streaming threshold of 4 bytes: a message up to it whole, a
    /// longer one as fragments (its bytes so far when it passed, then a
    /// frame's each, the last on its final frame), UTF-8 still checked
    /// across them, control frames between, the message bound still kept.
    func testReceive_StreamsMessagesPastTheThreshold() {
        func piece(_ opcode: WebSocketOpcode, _ bytes: [UInt8], first: Bool = false, last: Bool = false) -> WebSocketEvent {
            .fragment(WebSocketFragment(opcode: opcode, bytes: ByteBuffer(bytes), isFirst: first, isLast: last))
        }
        let table: [(String, [WebSocketFrame], [WebSocketEvent], WebSocketCloseCode?)] = [
            ("at the threshold, whole", [text("abcd")], [.message(.text("abcd"))], nil),
            ("fragments up to it, whole", [text("ab", fin: false), text("cd", .continuation)], [.message(.text("abcd"))], nil),
            ("one frame past it", [frame(.binary, [1, 2, 3, 4, 5])], [piece(.binary, [1, 2, 3, 4, 5], first: true, last: true)], nil),
            (
                "passed on the second fragment", [text("abc", fin: false), frame(.ping), text("de", fin: false, .continuation), text("f", .continuation), text("g")],
                [.ping([]), piece(.text, Array("abcde".utf8), first: true), piece(.text, Array("f".utf8), last: true), .message(.text("g"))], nil
            ),
            (
                "an empty last fragment", [frame(.binary, [1, 2, 3, 4, 5], fin: false), frame(.continuation)],
                [piece(.binary, [1, 2, 3, 4, 5], first: true), piece(.binary, [], last: true)], nil
            ),
            (
                "a character split between pieces", [frame(.text, [0x61, 0x62, 0x63, 0x64, 0xE2], fin: false), frame(.continuation, [0x82, 0xAC])],
                [piece(.text, [0x61, 0x62, 0x63, 0x64, 0xE2], first: true), piece(.text, [0x82, 0xAC], last: true)], nil
            ),
            (
                "bad UTF-8 in a later piece", [frame(.text, [0x61, 0x62, 0x63, 0x64, 0x65], fin: false), frame(.continuation, [0xFF])],
                [piece(.text, Array("abcde".utf8), first: true)], .invalidFramePayloadData
            ),
            (
                "past the message bound", [frame(.binary, [UInt8](repeating: 1, count: 40), fin: false), frame(.continuation, [UInt8](repeating: 2, count: 25))],
                [piece(.binary, [UInt8](repeating: 1, count: 40), first: true)], .messageTooBig
            ),
        ]
        for (name, frames, expected, code) in table {
            let result = assemble(frames, streamingThreshold: 4)
            XCTAssertEqual(result.events, expected, name)
            XCTAssertEqual(result.error?.closeCode, code, name)
        }
    }

    /// Every violation, its close code and reason, with the events before it.
    func testReceive_EveryViolationItsCloseCodeAndReason() {
        let table: [(String, [WebSocketFrame], [WebSocketEvent], WebSocketCloseCode, String)] = [
            ("continuation first", [frame(.continuation, [1])], [], .protocolError, "a continuation frame with no message begun"),
            ("continuation after a whole message", [text("a"), frame(.continuation)], [.message(.text("a"))], .protocolError, "a continuation frame with no message begun"),
            ("text inside text", [text("a", fin: false), frame(.ping), text("b")], [.ping([])], .protocolError, "a text frame inside an unfinished text message"),
            ("binary inside text", [text("a", fin: false), frame(.binary)], [], .protocolError, "a binary frame inside an unfinished text message"),
            ("text inside binary", [frame(.binary, fin: false), text("b")], [], .protocolError, "a text frame inside an unfinished binary message"),
            (
                "bad UTF-8 in the first fragment", [frame(.text, [0x61, 0xFF], fin: false)], [], .invalidFramePayloadData,
                "a text message that is not UTF-8: invalid UTF-8 at byte 1"
            ),
            (
                "bad UTF-8 in a later fragment", [frame(.text, [0x61, 0xC3], fin: false), frame(.continuation, [0x41], fin: false)], [], .invalidFramePayloadData,
                "a text message that is not UTF-8: invalid UTF-8 at byte 2"
            ),
            (
                "text ending inside a character", [frame(.text, [0x61, 0xE2, 0x82])], [], .invalidFramePayloadData,
                "a text message that is not UTF-8: UTF-8 cut short at byte 3"
            ),
            ("surrogate", [frame(.text, [0xED, 0xA0, 0x80])], [], .invalidFramePayloadData, "a text message that is not UTF-8: invalid UTF-8 at byte 1"),
            ("close of 1 byte", [frame(.close, [0x03])], [], .protocolError, "a Close frame of 1 byte (a code takes 2)"),
            ("close with 999", [frame(.close, [0x03, 0xE7])], [], .protocolError, "a Close frame with the code 999, which a peer may not send"),
            ("close with 1004", [frame(.close, [0x03, 0xEC])], [], .protocolError, "a Close frame with the code 1004, which a peer may not send"),
            ("close with 1005", [frame(.close, [0x03, 0xED])], [], .protocolError, "a Close frame with the code 1005, which a peer may not send"),
            ("close with 1006", [frame(.close, [0x03, 0xEE])], [], .protocolError, "a Close frame with the code 1006, which a peer may not send"),
            ("close with 1015", [frame(.close, [0x03, 0xF7])], [], .protocolError, "a Close frame with the code 1015, which a peer may not send"),
            ("close with 2999", [frame(.close, [0x0B, 0xB7])], [], .protocolError, "a Close frame with the code 2999, which a peer may not send"),
            ("close with 5000", [frame(.close, [0x13, 0x88])], [], .protocolError, "a Close frame with the code 5000, which a peer may not send"),
            (
                "close reason not UTF-8", [frame(.close, [0x03, 0xE8, 0x61, 0xC0, 0xAF])], [], .invalidFramePayloadData,
                "a Close frame whose reason is not UTF-8: invalid UTF-8 at byte 1"
            ),
            (
                "close reason cut short", [frame(.close, [0x03, 0xE8, 0xE2, 0x82])], [], .invalidFramePayloadData,
                "a Close frame whose reason is not UTF-8: UTF-8 cut short at byte 2"
            ),
        ]
        for (name, frames, events, code, reason) in table {
            let result = assemble(frames)
            XCTAssertEqual(result.events, events, name)
            XCTAssertEqual(result.error, WebSocketProtocolError(closeCode: code, reason: reason), name)
        }
    }

    /// A message of exactly `maxMessageLength` bytes passes, in one frame or
    /// many; one byte more fails on the fragment that passes the limit.
    func testReceive_MessageLimitAtTheBoundAndOnePast() {
        let limit = 10
        let exact: [[WebSocketFrame]] = [
            [frame(.binary, Array(repeating: 1, count: 10))],
            [frame(.binary, Array(repeating: 1, count: 4), fin: false), frame(.continuation, Array(repeating: 1, count: 6))],
            [text("12345", fin: false), text("", fin: false, .continuation), text("67890", .continuation)],
        ]
        for frames in exact {
            let result = assemble(frames, maxMessageLength: limit)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.events.count, 1)
        }
        let past: [([WebSocketFrame], String)] = [
            ([frame(.binary, Array(repeating: 1, count: 11))], "a message of more than 10 bytes (0 + a 11-byte frame)"),
            ([text("12345", fin: false), text("678901", fin: false, .continuation)], "a message of more than 10 bytes (5 + a 6-byte frame)"),
        ]
        for (frames, reason) in past {
            XCTAssertEqual(assemble(frames, maxMessageLength: limit).error, WebSocketProtocolError(closeCode: .messageTooBig, reason: reason))
        }
        // Control frames do not count toward a message.
        let pings = [text("12345", fin: false), frame(.ping, Array(repeating: 0, count: 100)), text("67890", .continuation)]
        XCTAssertNil(assemble(pings, maxMessageLength: limit).error)
    }

    /// A one-frame message is the frame's payload (no copy); the state
    /// says when a message is unfinished and when the close came.
    func testReceive_StateAndNoCopy() throws {
        var assembler = WebSocketMessageAssembler()
        let payload = ByteBuffer([1, 2, 3])
        let event = try assembler.receive(WebSocketFrame(opcode: .binary, payload: payload))
        guard case .message(.binary(let bytes)) = event else { return XCTFail("\(String(describing: event))") }
        XCTAssertTrue(bytes.sharesStorage(with: payload))
        XCTAssertNil(try assembler.receive(frame(.text, [0x61], fin: false)))
        XCTAssertTrue(assembler.isInsideMessage)
        XCTAssertFalse(assembler.isClosed)
        _ = try assembler.receive(frame(.close))
        XCTAssertTrue(assembler.isClosed)
        XCTAssertFalse(assembler.isInsideMessage)
    }
}
