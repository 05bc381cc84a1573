import RxUV

/// Turns a peer's frames into events (RFC 6455 §5.4–§5.6): fragments into
/// whole messages, control frames into events at once, even between the
/// fragments of a message.
///
/// `receive(_:)` takes the frames in order and returns an event when one is
/// complete: a message on its last fragment, a ping, pong or close on its
/// frame; `nil` for a fragment that does not end its message. It throws a
/// `WebSocketProtocolError` with the close code to send:
/// - a continuation with no message begun, or a text or binary frame while
///   one is unfinished: `protocolError` (1002);
/// - a message longer than `maxMessageLength`: `messageTooBig` (1009), on
///   the fragment that would pass the limit, before it is kept (so no more
///   than `maxMessageLength` bytes are ever held);
/// - a text message that is not UTF-8: `invalidFramePayloadData` (1007), on
///   the fragment with the first bad byte (checked as each arrives), or on
///   the last when the text ends inside a character;
/// - a Close frame of one byte, or with a code a peer may not send
///   (`WebSocketCloseCode.isValidReceived`): `protocolError`; one whose
///   reason is not UTF-8: `invalidFramePayloadData`.
///
/// With a `streamingThreshold`, a message whose bytes pass it is not held
/// whole: a `.fragment` event gives its bytes so far, then one follows for
/// each frame, the last on its final frame (still checked as above, and
/// still bounded by `maxMessageLength`).
///
/// After a Close frame the peer sends nothing more (§5.5.1): any frame that
/// follows is dropped (`nil`). Reserved bits are not looked at: an extension
/// that gives them a meaning (permessage-deflate) turns its frames into
/// plain ones before they come here. A value, for one connection's frames;
/// used from one thread at a time.
public struct WebSocketMessageAssembler: Sendable {
    /// The longest message accepted by default: 1 MiB.
    public static let defaultMaxMessageLength = 1 << 20

    /// The message being received: its kind, its fragments so far, their
    /// length, and for text the UTF-8 check that has seen them.
    private struct Partial: Sendable {
        var opcode: WebSocketOpcode
        var fragments: [ByteBuffer]
        var length: Int
        var validator: WebSocketUTF8Validator?
        /// Its first bytes went out as a fragment: the rest follow so.
        var streaming = false
    }

    /// The longest message accepted, in bytes, all its fragments counted.
    public let maxMessageLength: Int
    /// The length past which a message is passed on as it comes
    /// (`.fragment` events); `nil`, every message whole.
    public let streamingThreshold: Int?
    private var partial: Partial?
    /// A Close frame came: nothing more is read.
    public private(set) var isClosed = false

    /// An assembler of messages of at most `maxMessageLength` bytes, those
    /// past `streamingThreshold` passed on as they come.
    ///
    /// - Precondition: `maxMessageLength >= 0`, `streamingThreshold >= 0`.
    public init(maxMessageLength: Int = WebSocketMessageAssembler.defaultMaxMessageLength, streamingThreshold: Int? = nil) {
        precondition(maxMessageLength >= 0, "WebSocketMessageAssembler: maxMessageLength must not be negative")
        precondition((streamingThreshold ?? 0) >= 0, "WebSocketMessageAssembler: streamingThreshold must not be negative")
        self.maxMessageLength = maxMessageLength
        self.streamingThreshold = streamingThreshold
    }

    /// `true` while a message has begun and its last fragment has not come.
    public var isInsideMessage: Bool {
        partial != nil
    }

    /// The event `frame` completes, or `nil` (a fragment that does not end
    /// its message, or a frame after the Close); throws on a frame the
    /// protocol or the limit forbids here.
    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        guard !isClosed else { return nil }
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close:
            let close = try Self.close(frame.payload)
            isClosed = true
            partial = nil
            return .close(close)
        case .text, .binary, .continuation:
            try admit(frame.opcode, payloadLength: frame.payload.count)
            return try receiveData(frame)
        }
    }

    /// Refuses, before its payload is kept, a data frame that `receive`
    /// would refuse for its place or (with `countingLength`) its length;
    /// control frames and frames after a Close pass. What
    /// `WebSocketMessageDecoder` asks of each header: a compressed frame's
    /// length is not the message's, so it is counted once inflated.
    func admit(_ header: WebSocketFrameHeader, countingLength: Bool = true) throws(WebSocketProtocolError) {
        guard !isClosed, !header.opcode.isControl else { return }
        try admit(header.opcode, payloadLength: countingLength ? header.payloadLength : 0)
    }

    private func admit(_ opcode: WebSocketOpcode, payloadLength: Int) throws(WebSocketProtocolError) {
        switch (opcode, partial) {
        case (.continuation, nil):
            throw .protocolError("a continuation frame with no message begun")
        case (.text, .some(let partial)), (.binary, .some(let partial)):
            throw .protocolError("a \(opcode) frame inside an unfinished \(partial.opcode) message")
        default:
            break
        }
        let length = partial?.length ?? 0
        guard payloadLength <= maxMessageLength - length else {
            throw WebSocketProtocolError(
                closeCode: .messageTooBig, reason: "a message of more than \(maxMessageLength) bytes (\(length) + a \(payloadLength)-byte frame)")
        }
    }

    /// A data frame, its place and length already admitted.
    private mutating func receiveData(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        if partial == nil, frame.fin, frame.payload.count <= streamingThreshold ?? .max {
            // A message in one frame, the usual case: checked and passed on
            // with no fragment list.
            return .message(try Self.whole(frame.opcode, frame.payload))
        }
        var message = partial ?? Partial(opcode: frame.opcode, fragments: [], length: 0, validator: frame.opcode == .text ? WebSocketUTF8Validator() : nil)
        partial = nil
        if message.validator != nil {
            do throws(WebSocketUTF8Validator.Failure) {
                try message.validator?.validate(frame.payload)
                if frame.fin { try message.validator?.finish() }
            } catch {
                throw WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: "\(Self.textNotUTF8): \(error)")
            }
        }
        message.length += frame.payload.count
        if message.streaming {
            partial = frame.fin ? nil : message
            return .fragment(WebSocketFragment(opcode: message.opcode, bytes: frame.payload, isFirst: false, isLast: frame.fin))
        }
        message.fragments.append(frame.payload)
        if let streamingThreshold, message.length > streamingThreshold {
            // Past the threshold: its bytes so far go out, the rest as they come.
            let bytes = message.fragments.count == 1 ? message.fragments[0] : ByteBuffer(concatenating: message.fragments)
            message.fragments = []
            message.streaming = true
            partial = frame.fin ? nil : message
            return .fragment(WebSocketFragment(opcode: message.opcode, bytes: bytes, isFirst: true, isLast: frame.fin))
        }
        guard frame.fin else {
            partial = message
            return nil
        }
        // One fragment is passed on as it is (no copy); more are joined once.
        let bytes = message.fragments.count == 1 ? message.fragments[0] : ByteBuffer(concatenating: message.fragments)
        if message.opcode == .text {
            return .message(.text(bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }))
        }
        return .message(.binary(bytes))
    }

    /// A message of one frame: a text checked to be UTF-8 and made a
    /// `String`, a binary as it is.
    private static func whole(_ opcode: WebSocketOpcode, _ payload: ByteBuffer) throws(WebSocketProtocolError) -> WebSocketMessage {
        opcode == .text ? .text(try string(payload, refusedAs: textNotUTF8)) : .binary(payload)
    }

    private static let textNotUTF8 = "a text message that is not UTF-8"

    /// `bytes` as a `String`, once checked to be whole UTF-8; otherwise a
    /// 1007 whose reason begins with `refusal`.
    private static func string(_ bytes: ByteBuffer, refusedAs refusal: String) throws(WebSocketProtocolError) -> String {
        var validator = WebSocketUTF8Validator()
        do throws(WebSocketUTF8Validator.Failure) {
            try validator.validate(bytes)
            try validator.finish()
        } catch {
            throw WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: "\(refusal): \(error)")
        }
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A Close frame's payload read: empty, `noStatusReceived`; else a code
    /// a peer may send and a UTF-8 reason.
    private static func close(_ payload: ByteBuffer) throws(WebSocketProtocolError) -> WebSocketClose {
        guard !payload.isEmpty else { return WebSocketClose(code: .noStatusReceived) }
        guard payload.count >= 2 else { throw .protocolError("a Close frame of 1 byte (a code takes 2)") }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidReceived else {
            throw .protocolError("a Close frame with the code \(code.rawValue), which a peer may not send")
        }
        let reason = try string(payload.slice(at: 2, count: payload.count - 2), refusedAs: "a Close frame whose reason is not UTF-8")
        return WebSocketClose(code: code, reason: reason)
    }
}
