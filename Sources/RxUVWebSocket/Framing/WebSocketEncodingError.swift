/// A frame `WebSocketFrameEncoder` refuses to send, since RFC 6455 §5.5
/// forbids it: a programmer's mistake, reported as an error rather than
/// sent for the peer to refuse.
public enum WebSocketEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A control frame without FIN: control frames are never fragmented.
    case fragmentedControlFrame(WebSocketOpcode)
    /// A control frame of `length` bytes: at most 125 are allowed.
    case controlFrameTooLong(WebSocketOpcode, length: Int)

    /// What was wrong, in a sentence.
    public var description: String {
        switch self {
        case .fragmentedControlFrame(let opcode):
            "a \(opcode) frame without FIN: control frames are never fragmented"
        case .controlFrameTooLong(let opcode, let length):
            "a \(opcode) frame of \(length) bytes: control frames carry at most 125"
        }
    }
}
