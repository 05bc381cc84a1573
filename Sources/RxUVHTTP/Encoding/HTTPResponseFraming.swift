import HTTPTypes

/// How a response's body is delimited on an HTTP/1.1 connection
/// (RFC 9112 §6.3), decided from the response, the request's method and
/// the request's version: a `Content-Length`, chunks, nothing (no body, or
/// a body that the connection's close ends).
struct HTTPResponseFraming {
    /// What the head says of the body.
    let head: HTTPResponsePart.BodyFraming
    /// Bytes of a body follow the head: not for HEAD, 1xx, 204 or 304.
    let sendsBody: Bool
    /// The body ends with the connection (an HTTP/1.0 client with a body of
    /// unknown length): the connection closes after it.
    let closeDelimited: Bool

    /// The body goes out as chunks.
    var chunked: Bool { head == .chunked }

    @inline(__always)
    init(response: HTTPServerResponse, method: HTTPRequest.Method, minorVersion: Int) {
        let status = response.status.code
        guard status >= 200, status != 204, status != 304 else {
            (head, sendsBody, closeDelimited) = (.none, false, false)
            return
        }
        let isHead = method == .head
        sendsBody = !isHead
        if let length = response.body.length {
            (head, closeDelimited) = (.length(length), false)
        } else if isHead {
            (head, closeDelimited) = (.none, false)
        } else if minorVersion == 0 {
            // An HTTP/1.0 client knows no chunks: the close ends the body.
            (head, closeDelimited) = (.none, true)
        } else {
            (head, closeDelimited) = (.chunked, false)
        }
    }
}
