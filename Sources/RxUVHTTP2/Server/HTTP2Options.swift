/// How an HTTP/2 connection is spoken, beside the `HTTPServerOptions` it
/// shares with HTTP/1.1 (limits, timeouts, body buffer, `Server` field,
/// response hook, tracer): how many streams, how large their windows, and
/// the bounds on what a peer may make the server do for free. Each bound
/// passed ends the connection with a GOAWAY of `ENHANCE_YOUR_CALM` (or the
/// RFC's code), the server serving its other connections on.
public struct HTTP2Options: Sendable {
    /// Streams a client may have open at once
    /// (`SETTINGS_MAX_CONCURRENT_STREAMS`); one more is refused with
    /// `REFUSED_STREAM`.
    public var maxConcurrentStreams: Int
    /// Each stream's receive window (`SETTINGS_INITIAL_WINDOW_SIZE`): the
    /// request body bytes a client may send ahead of the handler's
    /// reading. The window opens again only as the handler reads (or
    /// the server holds less than `HTTPServerOptions.bodyBufferSize` for
    /// a handler that has not subscribed yet).
    public var initialWindowSize: Int
    /// RST_STREAMs a client may send in a burst, and per second after it
    /// (rapid reset, CVE-2023-44487), nghttp2's figures.
    public var resetBurst: Int
    /// See `resetBurst`.
    public var resetsPerSecond: Int
    /// CONTINUATION frames allowed after one HEADERS (the 2024
    /// CONTINUATION floods).
    public var maxContinuations: Int
    /// PING and SETTINGS frames (not acknowledgements) a client may send
    /// in a burst, and per second after it.
    public var controlFrameBurst: Int
    /// See `controlFrameBurst`.
    public var controlFramesPerSecond: Int
    /// Entries one SETTINGS frame may carry.
    public var maxSettingsEntries: Int
    /// SETTINGS and PING acknowledgements the server may hold unsent for
    /// a client that does not read.
    public var maxOutboundAcks: Int
    /// Request body bytes the server reads and drops for a handler that
    /// answered without reading them all (a `413`, a redirect): a client
    /// still sending more once the answer is whole is asked to stop
    /// (RST_STREAM `NO_ERROR`).
    public var maxDiscardedBody: Int

    /// Defaults: 100 streams, a 64 KiB window, 1,000 resets and 33 a
    /// second (nghttp2's), 8 CONTINUATIONs (nghttp2's), 1,000 PING/SETTINGS
    /// and 100 a second, 32 entries a SETTINGS, 1,000 unsent
    /// acknowledgements, 1 MiB of a request body dropped.
    public init(
        maxConcurrentStreams: Int = 100, initialWindowSize: Int = 65_535, resetBurst: Int = 1000, resetsPerSecond: Int = 33,
        maxContinuations: Int = 8, controlFrameBurst: Int = 1000, controlFramesPerSecond: Int = 100, maxSettingsEntries: Int = 32,
        maxOutboundAcks: Int = 1000, maxDiscardedBody: Int = 1 << 20
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.resetBurst = resetBurst
        self.resetsPerSecond = resetsPerSecond
        self.maxContinuations = maxContinuations
        self.controlFrameBurst = controlFrameBurst
        self.controlFramesPerSecond = controlFramesPerSecond
        self.maxSettingsEntries = maxSettingsEntries
        self.maxOutboundAcks = maxOutboundAcks
        self.maxDiscardedBody = max(maxDiscardedBody, 0)
    }

    /// What nghttp2 enforces itself.
    var sessionLimits: HTTP2SessionLimits {
        HTTP2SessionLimits(
            maxContinuations: max(maxContinuations, 0), maxSettingsEntries: max(maxSettingsEntries, 1), maxOutboundAcks: max(maxOutboundAcks, 1))
    }
}
