import HTTPTypes
import RxUV

/// One piece of a request as `HTTPRequestDecoder` cuts a connection's bytes:
/// a head, then, for a request with a body, body bytes as they arrive and
/// an end. A request without a body (`HTTPRequestHead.body == .none`) is its
/// head alone. Requests follow each other on a connection (pipelining).
public enum HTTPRequestPart: Sendable, Hashable {
    /// A request's head.
    case head(HTTPRequestHead)
    /// Body bytes (a slice of what was read: no copy).
    case body(ByteBuffer)
    /// The end of the body: its last bytes (of a `Content-Length` body;
    /// empty for a chunked one) and the trailer fields of a chunked one.
    case end(last: ByteBuffer, trailers: HTTPFields?)
}
