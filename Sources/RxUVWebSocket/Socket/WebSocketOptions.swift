/// How a `WebSocket` bounds what it reads and how long it waits.
public struct WebSocketOptions: Sendable {
    /// The longest frame read (its payload, in bytes): a longer one is
    /// refused from its header with `1009 messageTooBig`.
    public var maxFrameLength: Int
    /// The longest message read, its fragments together: a longer one is
    /// refused with `1009 messageTooBig` on the fragment that passes it.
    public var maxMessageLength: Int
    /// The length past which a received message is not held whole but
    /// delivered as a `WebSocketMessage.stream` of its bytes as they come,
    /// read with backpressure (`maxMessageLength` still bounds it); `nil`
    /// (the default), every message whole.
    public var streamingThreshold: Int?
    /// The bytes of messages that arrive before `messages` is subscribed,
    /// held for it: past them, the socket closes with `1008
    /// policyViolation` rather than hold more. A streamed message holds up
    /// to as many bytes for its reader, then the connection stops reading.
    public var unreadLimit: Int
    /// How long a close this side began waits for the peer's Close before
    /// the connection is closed without it (RFC 6455 §7.1.1).
    public var closeTimeout: Duration
    /// Keep-alive: a ping this often (its payload a counter); `nil`, none.
    /// A peer that answers no ping within `pongTimeout` is closed with
    /// 1011 (internal error: "keepalive ping timeout").
    public var pingInterval: Duration?
    /// How long a keep-alive ping waits for a pong (any pong answers it).
    public var pongTimeout: Duration
    /// permessage-deflate (RFC 7692): a client offers it, a server accepts
    /// a client's offer; `nil` (the default), messages go uncompressed and
    /// a client's offer is declined. A compressed message counts against
    /// `maxMessageLength` once inflated.
    public var compression: WebSocketCompression?

    /// Options with 1 MiB frames and messages, 1 MiB held unread, a
    /// 5-second close, no keep-alive pings unless `pingInterval` is given
    /// (then a 10-second wait for each pong by default), no compression
    /// unless `compression` is given, and every message whole unless
    /// `streamingThreshold` is given.
    public init(
        maxFrameLength: Int = 1 << 20, maxMessageLength: Int = 1 << 20, unreadLimit: Int = 1 << 20, closeTimeout: Duration = .seconds(5),
        pingInterval: Duration? = nil, pongTimeout: Duration = .seconds(10), compression: WebSocketCompression? = nil,
        streamingThreshold: Int? = nil
    ) {
        self.compression = compression
        self.streamingThreshold = streamingThreshold
        self.maxFrameLength = maxFrameLength
        self.maxMessageLength = maxMessageLength
        self.unreadLimit = unreadLimit
        self.closeTimeout = closeTimeout
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
    }
}
