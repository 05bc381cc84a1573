import RxUV

/// A whole WebSocket data message (RFC 6455 §5.6), its fragments joined.
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message: checked to be UTF-8 before it is delivered.
    case text(String)
    /// A binary message.
    case binary(ByteBuffer)

    /// The payload's length in bytes (a text's in UTF-8).
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }

    /// `text(12 bytes)`, `binary(3 bytes)`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .binary(let bytes): "binary(\(bytes.count) bytes)"
        }
    }
}
