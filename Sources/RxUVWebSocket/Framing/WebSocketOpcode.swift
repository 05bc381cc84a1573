/// What a WebSocket frame carries (RFC 6455 §5.2, §11.8): a piece of a data
/// message (`continuation`, `text`, `binary`) or a control frame (`close`,
/// `ping`, `pong`).
///
/// Only the six opcodes RFC 6455 defines exist here: the reserved ones
/// (0x3–0x7 and 0xB–0xF) have no meaning without an extension that defines
/// them, so `WebSocketFrameDecoder` refuses them with `protocolError`.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A later fragment of the message in progress (0x0).
    case continuation = 0x0
    /// The first (or only) fragment of a text message (0x1): its payload is UTF-8.
    case text = 0x1
    /// The first (or only) fragment of a binary message (0x2).
    case binary = 0x2
    /// The closing handshake (0x8): an optional status code and reason.
    case close = 0x8
    /// A ping (0x9), which the peer answers with a pong of the same payload.
    case ping = 0x9
    /// A pong (0xA): an answer to a ping, or an unsolicited heartbeat.
    case pong = 0xA

    /// `true` for `close`, `ping` and `pong` (the opcodes whose high bit is
    /// set): frames that are never fragmented, carry at most 125 bytes, and
    /// may come between the fragments of a message (RFC 6455 §5.5).
    public var isControl: Bool {
        rawValue & 0x8 != 0
    }

    /// The opcode's name, as RFC 6455 §11.8 gives it (`text`, `ping`).
    public var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
