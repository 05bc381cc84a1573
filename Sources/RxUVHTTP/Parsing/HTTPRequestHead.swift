import HTTPTypes

/// A request's head, as the decoder read it: the request (swift-http-types'
/// `HTTPRequest`: method, the target as `path`, the Host field as
/// `authority`, the header fields in order), the protocol version, how the
/// body is framed, whether the connection stays open after the response,
/// whether the client waits for `100 Continue`, and whether it asks to
/// switch protocols.
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
    /// An HTTP/1.1 request with `Upgrade` and `upgrade` in `Connection`
    /// (RFC 9110 §7.8): a server may answer `101 Switching Protocols` and
    /// speak another protocol on the connection (`HTTPUpgrade`).
    public var asksToUpgrade: Bool
    /// For a head that asks to upgrade: bytes after it had already arrived
    /// when it was decoded (a client that did not wait for the answer).
    /// A fact of how the bytes arrived, not of the head: equality and
    /// hashing leave it out.
    var followedByBytes = false

    /// A head to send (`HTTPRequestEncoder`): `request` over HTTP/1.1 (or
    /// 1.0) with its body framed as `body`, the connection kept open after
    /// the response unless `keepAlive` is `false`, and `Expect:
    /// 100-continue` when `expectsContinue`; `asksToUpgrade` says what
    /// the request's `Upgrade` and `Connection` fields ask (the encoder
    /// writes the fields as they are).
    public init(
        _ request: HTTPRequest, minorVersion: Int = 1, body: BodyFraming = .none, keepAlive: Bool = true, expectsContinue: Bool = false,
        asksToUpgrade: Bool = false
    ) {
        self.request = request
        self.minorVersion = minorVersion
        self.body = body
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
        self.asksToUpgrade = asksToUpgrade
    }
}

extension HTTPRequestHead {
    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.request == rhs.request && lhs.minorVersion == rhs.minorVersion && lhs.body == rhs.body && lhs.keepAlive == rhs.keepAlive
            && lhs.expectsContinue == rhs.expectsContinue && lhs.asksToUpgrade == rhs.asksToUpgrade
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(request)
        hasher.combine(minorVersion)
        hasher.combine(body)
        hasher.combine(keepAlive)
        hasher.combine(expectsContinue)
        hasher.combine(asksToUpgrade)
    }
}
