import HTTPTypes

/// An error a handler throws (or fails its `Single` with) to answer with a
/// status of its choosing: `throw HTTPError(.notFound)`. The message, when
/// there is one, is the response's plain-text body. Any other error is
/// answered `500 Internal Server Error` and reported.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPResponse.Status
    /// The body of the answer (`text/plain`); `nil` sends the reason phrase.
    public var message: String?

    /// An error answered with `status` and `message`.
    public init(_ status: HTTPResponse.Status, message: String? = nil) {
        self.status = status
        self.message = message
    }

    /// `404 Not Found` or `404 Not Found: no such user`.
    public var description: String {
        "\(status.code) \(status.reasonPhrase)" + (message.map { ": \($0)" } ?? "")
    }
}
