import HTTPTypes
import RxUV

/// A response as it begins: its head at once, its body as it arrives.
///
/// The body must be read or let go: the connection is held, its reading
/// stopped once `HTTPClientConfiguration.responseBufferSize` bytes wait,
/// until the body is read to its end (the connection then goes back to the
/// pool) or is let go (its subscription disposed, or the last reference to
/// it dropped unread: the connection is closed).
public struct HTTPClientResponse: Sendable {
    /// The status (with its reason phrase as sent: none over HTTP/2) and
    /// the header fields, in order.
    public var head: HTTPResponse {
        didSet { statusCode = head.status.code }
    }
    /// The major version of HTTP the server answered with: 1, or 2 on a
    /// connection where ALPN agreed on `h2` (or with prior knowledge).
    public var majorVersion: Int
    /// The minor version of HTTP/1.x the server answered with; 0 over
    /// HTTP/2.
    public var minorVersion: Int
    /// The body.
    public var body: HTTPClientResponseBody
    /// `head.status.code`, kept as the head is set: the status is parsed
    /// from its pseudo-field at every read of `head.status`.
    package private(set) var statusCode: Int

    /// A response of `head`, whose status code is `statusCode` when the
    /// caller has it parsed.
    init(head: HTTPResponse, statusCode: Int? = nil, majorVersion: Int = 1, minorVersion: Int, body: HTTPClientResponseBody) {
        self.head = head
        self.statusCode = statusCode ?? head.status.code
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.body = body
    }

    /// The status.
    public var status: HTTPResponse.Status {
        head.status
    }

    /// The header fields.
    public var headerFields: HTTPFields {
        head.headerFields
    }
}
