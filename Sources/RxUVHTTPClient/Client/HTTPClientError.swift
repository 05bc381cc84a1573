/// Why the client could not carry out a request, beside the errors it
/// passes on as they are: the connect's `UVError` (`ECONNREFUSED`,
/// `EAI_NONAME`), the TLS handshake's `TLSError` (`.hostnameMismatch`,
/// `.unknownCA`), a read's `UVError` (`ECONNRESET`), and the
/// `HTTPParseError` of a response the decoder refused (status 502, with
/// the reason).
public struct HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The request's URL or its scheme, host or port cannot be used.
        case invalidRequest
        /// No connection to the host within `HTTPClientConfiguration.connectTimeout`.
        case connectTimeout
        /// The response's head did not arrive within
        /// `HTTPClientConfiguration.headTimeout` of the request's head
        /// going out.
        case headTimeout
        /// The whole exchange (queue, connect, request and response body)
        /// took longer than `HTTPClientConfiguration.requestTimeout`.
        case requestTimeout
        /// The host's queue of waiting requests was full
        /// (`HTTPClientConfiguration.maxQueuedRequestsPerHost`).
        case queueFull
        /// The client is shut down (or shutting down): no new request is
        /// taken, and the requests still queued fail with this.
        case shutdown
        /// The server closed the connection before the response's end
        /// (before its head, or in a body whose end the close is not).
        case connectionClosed
        /// A request body sent another number of bytes than its declared
        /// length.
        case bodyLengthMismatch
        /// The response's body passed the length given to `collect(upTo:)`.
        case bodyTooLarge
        /// The server switched protocols (`101`) though the request asked
        /// for no upgrade.
        case unexpectedUpgrade
        /// The server answered an upgrade (`rx.upgrade`) with another
        /// status than `101 Switching Protocols`.
        case upgradeRefused
        /// A redirect could not be followed: too many, a loop, or from
        /// `https` to `http` without leave.
        case redirect
        /// The response's compressed body was malformed, cut short, or
        /// would inflate past the bound of `HTTPDecompression.enabled`.
        case decompression
    }

    /// What went wrong.
    public let code: Code
    /// The details, for a person (`no connection to 10.0.0.1:80 in 10 s`).
    public let detail: String

    /// An error `code`, with `detail`.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `detail`.
    public var description: String {
        detail
    }
}
