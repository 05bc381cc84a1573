import RxUV

/// A WebSocket data message (RFC 6455 §5.6): whole, its fragments joined,
/// or, past a socket's `WebSocketOptions.streamingThreshold`, a stream of
/// its bytes as they arrive.
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message: checked to be UTF-8 before it is delivered.
    case text(String)
    /// A binary message.
    case binary(ByteBuffer)
    /// A message read as it arrives (received), or sent as its stream
    /// gives its bytes (one frame each).
    case stream(WebSocketMessageStream)

    /// The payload's length in bytes (a text's in UTF-8); 0 for a stream,
    /// whose bytes are counted as they come.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        case .stream: 0
        }
    }

    /// `text(12 bytes)`, `binary(3 bytes)`, `stream(binary)`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .binary(let bytes): "binary(\(bytes.count) bytes)"
        case .stream(let stream): "stream(\(stream.opcode))"
        }
    }
}
