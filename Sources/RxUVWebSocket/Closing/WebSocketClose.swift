/// What a peer's Close frame said (RFC 6455 §5.5.1, §7.1.5): its status
/// code and reason.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The peer's status code; `noStatusReceived` (1005) when the frame
    /// carried none.
    public let code: WebSocketCloseCode
    /// The peer's reason, UTF-8; empty when it gave none.
    public let reason: String

    /// A close with `code` and `reason`.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `1000 normalClosure "bye"`.
    public var description: String {
        reason.isEmpty ? "\(code)" : "\(code) \"\(reason)\""
    }
}
