import RxUV

/// A piece of a message delivered as it comes rather than whole: what
/// `WebSocketMessageAssembler` gives for a message past its
/// `streamingThreshold`, and what `WebSocket.messages` turns into a
/// `WebSocketMessageStream`.
///
/// The first piece holds every byte the message had when it passed the
/// threshold; each next piece is one frame's payload (a text's checked as
/// UTF-8 up to its last byte, which may end inside a character: the
/// message's last piece ends it). The last piece may be empty.
public struct WebSocketFragment: Sendable, Hashable, CustomStringConvertible {
    /// The message's kind: `.text` or `.binary`.
    public let opcode: WebSocketOpcode
    /// The bytes.
    public let bytes: ByteBuffer
    /// The message's first piece.
    public let isFirst: Bool
    /// The message's last piece.
    public let isLast: Bool

    /// A piece of a message of kind `opcode`.
    public init(opcode: WebSocketOpcode, bytes: ByteBuffer, isFirst: Bool, isLast: Bool) {
        self.opcode = opcode
        self.bytes = bytes
        self.isFirst = isFirst
        self.isLast = isLast
    }

    /// `text first 70000 bytes`, `binary 3 bytes last`.
    public var description: String {
        "\(opcode)\(isFirst ? " first" : "") \(bytes.count) bytes\(isLast ? " last" : "")"
    }
}
