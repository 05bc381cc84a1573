/// How a `WebSocket` bounds what it reads and how long it waits.
public struct WebSocketOptions: Sendable {
    /// The longest frame read (its payload, in bytes): a longer one is
    /// refused from its header with `1009 messageTooBig`.
    public var maxFrameLength: Int
    /// The longest message read, its fragments together: a longer one is
    /// refused with `1009 messageTooBig` on the fragment that passes it.
    public var maxMessageLength: Int
    /// The bytes of messages that arrive before `messages` is subscribed,
    /// held for it: past them, the socket closes with `1008
    /// policyViolation` rather than hold more.
    public var unreadLimit: Int
    /// How long a close this side began waits for the peer's Close before
    /// the connection is closed without it (RFC 6455 §7.1.1).
    public var closeTimeout: Duration

    /// Options with 1 MiB frames and messages, 1 MiB held unread, and a
    /// 5-second close.
    public init(
        maxFrameLength: Int = 1 << 20, maxMessageLength: Int = 1 << 20, unreadLimit: Int = 1 << 20, closeTimeout: Duration = .seconds(5)
    ) {
        self.maxFrameLength = maxFrameLength
        self.maxMessageLength = maxMessageLength
        self.unreadLimit = unreadLimit
        self.closeTimeout = closeTimeout
    }
}
