import HTTPTypes
import RxUV

/// One piece of a request as a client sends it (`HTTPRequestEncoder`): a
/// head, then the body as plain bytes (with `Content-Length`) or as chunks
/// (`Transfer-Encoding: chunked`), then for a chunked body its last chunk.
/// The parts of requests that `HTTPRequestDecoder` read (`HTTPRequestPart`)
/// map onto these one to one, the head's framing telling `.body` bytes
/// from chunks.
public enum HTTPClientRequestPart: Sendable, Hashable {
    /// The request line and fields, with how the body is framed
    /// (`HTTPRequestHead.body`), whether the connection stays open and
    /// whether the client waits for `100 Continue`.
    case head(HTTPRequestHead)
    /// Body bytes of a `Content-Length` body, as they are.
    case body(ByteBuffer)
    /// One chunk of a chunked body (an empty one writes nothing: it would
    /// end the body).
    case chunk(ByteBuffer)
    /// The end of a chunked body: the last chunk and the trailer fields.
    case lastChunk(trailers: HTTPFields?)
}
