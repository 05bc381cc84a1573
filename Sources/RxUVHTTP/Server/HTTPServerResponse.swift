import HTTPTypes
import RxUV

/// What a handler answers: a swift-http-types `HTTPResponse` (status and
/// header fields) and its body. The server adds `Content-Length` or
/// `Transfer-Encoding`, `Date` and, when the connection ends,
/// `Connection: close`; it writes no body for `HEAD`, 1xx, 204 and 304.
public struct HTTPServerResponse: Sendable {
    /// The status and header fields.
    public var head: HTTPResponse
    /// The body.
    public var body: HTTPResponseBody

    /// A response with `head` and `body`.
    public init(head: HTTPResponse, body: HTTPResponseBody = .empty) {
        self.head = head
        self.body = body
    }

    /// A response with `status`, `headerFields` and `body`.
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: HTTPResponseBody = .empty) {
        self.init(head: HTTPResponse(status: status, headerFields: headerFields), body: body)
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8"], body: .string(text))
    }
}
