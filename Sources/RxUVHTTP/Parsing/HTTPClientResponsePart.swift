import HTTPTypes
import RxUV

/// One piece of a response as `HTTPResponseDecoder` cuts a client
/// connection's bytes: a head, then, for a response with a body, body
/// bytes as they arrive and an end. A response without a body
/// (`HTTPResponseHead.body` `.none`, an interim 1xx among them) is its head
/// alone. Responses follow each other in the order of the requests.
public enum HTTPClientResponsePart: Sendable, Hashable {
    /// A response's head.
    case head(HTTPResponseHead)
    /// Body bytes (a slice of what was read: no copy).
    case body(ByteBuffer)
    /// The end of the body: its last bytes (of a `Content-Length` body;
    /// empty for the others) and the trailer fields of a chunked one.
    case end(last: ByteBuffer, trailers: HTTPFields?)
    /// Bytes that came after a switch of protocols
    /// (`HTTPResponseHead.BodyFraming.switchedProtocol`), as they came:
    /// not HTTP, not decoded.
    case switched(ByteBuffer)
}
