import HTTPTypes
import RxUV

/// One piece of a response, as `HTTPResponseEncoder` writes it: a head,
/// then the body as plain bytes (with `Content-Length`) or as chunks
/// (`Transfer-Encoding: chunked`), then for a chunked body its last chunk.
public enum HTTPResponsePart: Sendable, Hashable {
    /// How a response's body is delimited.
    public enum BodyFraming: Sendable, Hashable {
        /// No body (a `HEAD` answer, 204, 304): no length field is written
        /// unless the response has one.
        case none
        /// This many bytes follow (`Content-Length`).
        case length(Int)
        /// Chunks follow (`Transfer-Encoding: chunked`).
        case chunked
    }

    /// The status line and fields. `date` (an IMF-fixdate) is written as
    /// the `Date` field unless the response has one; `keepAlive` false
    /// adds `Connection: close`.
    case head(HTTPResponse, body: BodyFraming, keepAlive: Bool, date: String?)
    /// Body bytes of a `Content-Length` body, as they are.
    case body(ByteBuffer)
    /// One chunk of a chunked body (an empty one writes nothing: it would
    /// end the body).
    case chunk(ByteBuffer)
    /// The end of a chunked body: the last chunk and the trailer fields.
    case lastChunk(trailers: HTTPFields?)
}
