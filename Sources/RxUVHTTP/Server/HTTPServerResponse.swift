import HTTPTypes
import RxUV

/// What a handler answers: a swift-http-types `HTTPResponse` (status and
/// header fields) and its body. The server adds `Content-Length` or
/// `Transfer-Encoding`, `Date` and, when the connection ends,
/// `Connection: close`; it writes no body for `HEAD`, 1xx, 204 and 304.
public struct HTTPServerResponse: Sendable {
    /// The status and header fields.
    public var head: HTTPResponse {
        didSet {
            status = head.status
            fieldLines = HTTPFieldLines(head.headerFields)
        }
    }
    /// The body.
    public var body: HTTPResponseBody
    /// `head.status`, read when `head` is set: swift-http-types parses the
    /// status out of a field on every read of `HTTPResponse.status`, and a
    /// server reads it on every response (a response kept and answered
    /// many times is parsed once).
    public private(set) var status: HTTPResponse.Status
    /// `head.headerFields` as the head writer writes them.
    private(set) var fieldLines: HTTPFieldLines

    /// A response with `head` and `body`.
    public init(head: HTTPResponse, body: HTTPResponseBody = .empty) {
        self.head = head
        self.body = body
        self.status = head.status
        self.fieldLines = HTTPFieldLines(head.headerFields)
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
