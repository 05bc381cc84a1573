import HTTPTypes

/// A message that cannot be taken as it came, and why. For a request, the
/// status the RFC names for it (400, 413, 414, 431, 501, 505): the
/// connection's framing can no longer be trusted after any of them, so
/// the server answers with the status and closes. For a response
/// (`HTTPResponseDecoder`), always `502 Bad Gateway`, what a gateway
/// answers for an invalid response (RFC 9110 §15.6.3): the client closes
/// the connection.
public struct HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status to answer with.
    public let status: HTTPResponse.Status
    /// What was wrong (`obsolete line folding`, `Content-Length and Transfer-Encoding`).
    public let reason: String

    /// An error answered with `status`.
    public init(status: HTTPResponse.Status, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// `400 Bad Request: obsolete line folding`.
    public var description: String {
        "\(status.code) \(status.reasonPhrase): \(reason)"
    }

    static func badRequest(_ reason: String) -> HTTPParseError {
        HTTPParseError(status: .badRequest, reason: reason)
    }
}
