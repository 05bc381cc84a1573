import HTTPTypes
import RxCore
import RxUV

/// A response's body: nothing, bytes in hand, a stream of buffers, or a
/// file's bytes.
public struct HTTPResponseBody: Sendable {
    // @unchecked Sendable: an Observable is immutable once made, and is
    // subscribed on the connection's loop thread only.
    package enum Content: @unchecked Sendable {
        case bytes(ByteBuffer)
        case stream(Observable<ByteBuffer>, length: Int?)
        case paced(HTTPPacedBody, length: Int?)
        case file(path: String, range: Range<Int64>)
        case openFile(OpenFile, range: Range<Int64>)
    }

    package let content: Content
    /// What makes the trailer fields of a streamed body, once it ended.
    package let trailers: (@Sendable () -> HTTPFields)?

    init(content: Content, trailers: (@Sendable () -> HTTPFields)? = nil) {
        self.content = content
        self.trailers = trailers
    }

    /// No body (`Content-Length: 0` where a body may be sent).
    public static let empty = HTTPResponseBody(content: .bytes(ByteBuffer()))

    /// `bytes`, sent with `Content-Length` together with the head, as one
    /// write.
    public static func bytes(_ bytes: ByteBuffer) -> HTTPResponseBody {
        HTTPResponseBody(content: .bytes(bytes))
    }

    /// The UTF-8 bytes of `string`.
    public static func string(_ string: String) -> HTTPResponseBody {
        .bytes(ByteBuffer(string: string))
    }

    /// The buffers `source` emits, each written as it comes, on the
    /// connection's loop thread: with `Content-Length` when `length` is
    /// given (a source that sends another count closes the connection, the
    /// response cut short, and is reported), chunked otherwise (for an
    /// HTTP/1.0 client, until the connection closes). The source is
    /// subscribed once the responses before this one are written and
    /// disposed when the connection closes. It is not slowed by the
    /// connection: one that can produce faster than the peer reads should
    /// watch `connection.rx.writable`, or be a file (`file(path:range:)`).
    ///
    /// `trailers`, when given, is called on the connection's loop thread
    /// once the source has completed, and its fields follow the body as
    /// trailers (a checksum, gRPC's `grpc-status`): over HTTP/1.1 in a
    /// chunked body's last chunk (none goes with a `length`, nor to an
    /// HTTP/1.0 client), over HTTP/2 as a HEADERS frame that ends the
    /// stream.
    public static func stream(
        _ source: Observable<ByteBuffer>, length: Int? = nil, trailers: (@Sendable () -> HTTPFields)? = nil
    ) -> HTTPResponseBody {
        HTTPResponseBody(content: .stream(source, length: length), trailers: trailers)
    }

    /// The pieces of `sequence` (the `values` of a client's response body,
    /// for a proxy), each written as it comes, the next asked for only
    /// while the connection is writable (its write queue at or below the
    /// stream's high watermark), so a producer faster than the client is
    /// held to the client's pace; framed as `stream(_:length:)` frames
    /// (`Content-Length` when `length` is given, chunked otherwise). The
    /// sequence is iterated in a Task on the connection's loop once the
    /// head is written; the Task is cancelled when the connection closes.
    /// `trailers` follow the body as `stream(_:length:trailers:)`'s do.
    public static func values<Values: AsyncSequence & SendableMetatype>(
        _ sequence: Values, length: Int? = nil, trailers: (@Sendable () -> HTTPFields)? = nil
    ) -> HTTPResponseBody
    where Values.Element == ByteBuffer, Values.AsyncIterator: SendableMetatype {
        HTTPResponseBody(content: .paced(HTTPPacedBody(sequence), length: length), trailers: trailers)
    }

    /// The bytes `range` of the file at `path` (offsets; the caller has
    /// measured the file, for example with `loop.rx.stat(path:)`), with
    /// `Content-Length`, read chunk by chunk from libuv's thread pool, the
    /// next chunk only once the last is written (`write(fileAt:range:)`),
    /// so a slow client holds one chunk in memory. A file that ends before
    /// the range does closes the connection, the response cut short.
    public static func file(path: String, range: Range<Int64>) -> HTTPResponseBody {
        HTTPResponseBody(content: .file(path: path, range: range))
    }

    /// The bytes `range` of `file`, a file already open
    /// (`loop.rx.openFile(path:)`, or an `OpenFileCache` for files served
    /// again and again), with `Content-Length`, sent by the connection's
    /// stream (`ByteStream.write(_:range:)`): over TCP and Unix sockets
    /// with `sendfile(2)` from the page cache, copying only what the socket
    /// cannot take at once, a chunk at a time; over TLS a chunk at a time.
    /// Read on the loop thread, as nginx reads without `aio`; for files
    /// that may not be in the page cache, `file(path:range:)` reads on
    /// libuv's thread pool. A file that ends before the range does closes
    /// the connection, the response cut short.
    public static func file(_ file: OpenFile, range: Range<Int64>) -> HTTPResponseBody {
        HTTPResponseBody(content: .openFile(file, range: range))
    }

    /// The byte count when it is known before the body is sent.
    public var length: Int? {
        switch content {
        case .bytes(let bytes): bytes.count
        case .stream(_, let length), .paced(_, let length): length
        case .file(_, let range), .openFile(_, let range): Int(range.count)
        }
    }
}
