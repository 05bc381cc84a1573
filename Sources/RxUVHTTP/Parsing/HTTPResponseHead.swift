import HTTPTypes

/// A response's head, as `HTTPResponseDecoder` read it: the response
/// (swift-http-types' `HTTPResponse`: the status with its reason phrase as
/// sent, the header fields in order), the protocol version, how the body
/// is framed, and whether the connection can carry another request after
/// it.
public struct HTTPResponseHead: Sendable, Hashable {
    /// How a response's body is delimited (RFC 9112 §6.3).
    public enum BodyFraming: Sendable, Hashable {
        /// No body: a 1xx, 204 or 304 response, a response to `HEAD`, or
        /// `Content-Length: 0`.
        case none
        /// `Content-Length` bytes.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Everything up to the end of the input (neither field): the
        /// connection's close ends the body.
        case untilClose
        /// No body, and no more HTTP: the connection switched to another
        /// protocol (`101 Switching Protocols`, or a 2xx answer to
        /// `CONNECT`, a tunnel), whose bytes follow as `.switched` parts.
        case switchedProtocol
    }

    /// The response.
    public var response: HTTPResponse {
        didSet { statusCode = response.status.code }
    }
    /// The minor version of HTTP/1.x (0 or 1).
    public var minorVersion: Int
    /// How the body is delimited.
    public var body: BodyFraming
    /// Whether the connection can carry another request once this
    /// response has ended: HTTP/1.1 unless `Connection: close`, HTTP/1.0
    /// only with `Connection: keep-alive`, and never after a body the close
    /// ends or a switch of protocols. Always true for a 1xx other than 101,
    /// which the final response follows.
    public var keepAlive: Bool

    /// `response.status.code`, kept as the response is set: the status is
    /// parsed from its pseudo-field at every read of `response.status`.
    /// The decoder passes the code it parsed to the memberwise `init`.
    package private(set) var statusCode: Int

    /// Whether this is an interim (1xx) response, other than 101: the
    /// final response to the same request follows it.
    public var isInformational: Bool {
        (100...199).contains(statusCode) && statusCode != 101
    }
}
