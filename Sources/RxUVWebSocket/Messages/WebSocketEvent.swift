import RxUV

/// What a peer's frames amount to, one event at a time: a whole message, or
/// a control frame, delivered as soon as it arrives (even between the
/// fragments of a message, RFC 6455 §5.4).
public enum WebSocketEvent: Sendable, Hashable, CustomStringConvertible {
    /// A whole text or binary message.
    case message(WebSocketMessage)
    /// A piece of a message past the assembler's streaming threshold,
    /// delivered as it comes.
    case fragment(WebSocketFragment)
    /// A ping and its payload (at most 125 bytes), which this side answers
    /// with a pong of the same payload (§5.5.2).
    case ping(ByteBuffer)
    /// A pong and its payload (at most 125 bytes).
    case pong(ByteBuffer)
    /// The peer's Close frame: it sends nothing more (§5.5.1).
    case close(WebSocketClose)

    /// `message(text(5 bytes))`, `ping(0 bytes)`, `close(1000 normalClosure)`.
    public var description: String {
        switch self {
        case .message(let message): "message(\(message))"
        case .fragment(let fragment): "fragment(\(fragment))"
        case .ping(let payload): "ping(\(payload.count) bytes)"
        case .pong(let payload): "pong(\(payload.count) bytes)"
        case .close(let close): "close(\(close))"
        }
    }
}
