import HTTPTypes

/// A request's head, as the decoder read it: the request (swift-http-types'
/// `HTTPRequest`: method, the target as `path`, the Host field as
/// `authority`, the header fields in order), the protocol version, how the
/// body is framed, whether the connection stays open after the response,
/// and whether the client waits for `100 Continue`.
public struct HTTPRequestHead: Sendable, Hashable {
    /// How a request's body is delimited (RFC 9112 §6).
    public enum BodyFraming: Sendable, Hashable {
        /// No body.
        case none
        /// `Content-Length` bytes.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    /// The request. `path` is the request-target as sent (origin form
    /// `/a?b`, absolute form, authority form or `*`).
    public var request: HTTPRequest
    /// The minor version of HTTP/1.x (0 or 1).
    public var minorVersion: Int
    /// How the body is delimited.
    public var body: BodyFraming
    /// Whether the connection stays open after the response: HTTP/1.1
    /// unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request with a body.
    public var expectsContinue: Bool

    /// A head to send (`HTTPRequestEncoder`): `request` over HTTP/1.1 (or
    /// 1.0) with its body framed as `body`, the connection kept open after
    /// the response unless `keepAlive` is `false`, and `Expect:
    /// 100-continue` when `expectsContinue`.
    public init(
        _ request: HTTPRequest, minorVersion: Int = 1, body: BodyFraming = .none, keepAlive: Bool = true, expectsContinue: Bool = false
    ) {
        self.request = request
        self.minorVersion = minorVersion
        self.body = body
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
    }
}
