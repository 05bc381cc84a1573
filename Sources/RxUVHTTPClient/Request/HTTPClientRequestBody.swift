import RxCore
import RxUV
import RxUVHTTP

/// A request's body: nothing, bytes in hand, a stream of buffers, or a
/// file's bytes.
public struct HTTPClientRequestBody: Sendable {
    // @unchecked Sendable: an Observable is immutable once made, and is
    // subscribed on the connection's loop thread only.
    enum Content: @unchecked Sendable {
        case bytes(ByteBuffer)
        case stream(Observable<ByteBuffer>, length: Int?)
        case paced(HTTPPacedBody, length: Int?)
        case file(OpenFile, range: Range<Int64>)
    }

    let content: Content

    /// No body: a request with none (no `Content-Length` for `GET`,
    /// `HEAD`, `DELETE`, `OPTIONS`, `CONNECT` and `TRACE`;
    /// `Content-Length: 0` for the other methods, as RFC 9110 §8.6 asks).
    public static let empty = HTTPClientRequestBody(content: .bytes(ByteBuffer()))

    /// `bytes`, sent with `Content-Length`, with the head in one write.
    public static func bytes(_ bytes: ByteBuffer) -> HTTPClientRequestBody {
        HTTPClientRequestBody(content: .bytes(bytes))
    }

    /// The UTF-8 bytes of `string`.
    public static func string(_ string: String) -> HTTPClientRequestBody {
        .bytes(ByteBuffer(string: string))
    }

    /// The buffers `source` emits, each written as it comes on the
    /// connection's loop thread: with `Content-Length` when `length` is
    /// given (a source that sends another count fails the request with
    /// `HTTPClientError.bodyLengthMismatch` and closes the connection), as
    /// chunks otherwise. Subscribed once the head is written (after
    /// `100 Continue` when the request expects it); disposed when the
    /// exchange ends or is disposed. Its `error` fails the request. Not
    /// slowed by the connection: a producer that can outrun the network
    /// should watch the stream's writability, or be a file. Sent once: a
    /// streamed request is never retried.
    public static func stream(_ source: Observable<ByteBuffer>, length: Int? = nil) -> HTTPClientRequestBody {
        HTTPClientRequestBody(content: .stream(source, length: length))
    }

    /// The pieces of `sequence` (a server's request body's `values`, for a
    /// proxy; any producer), each written as it comes, the next asked for
    /// only while the connection is writable (its write queue at or below
    /// the stream's high watermark), so the producer is held to the
    /// server's pace with bounded memory; framed as `stream(_:length:)`
    /// frames. Iterated in a Task on the connection's loop once the head is
    /// written (after `100 Continue` when the request expects it); the
    /// Task is cancelled when the exchange ends or is disposed. Sent once:
    /// never retried.
    public static func values<Values: AsyncSequence & SendableMetatype>(_ sequence: Values, length: Int? = nil) -> HTTPClientRequestBody
    where Values.Element == ByteBuffer, Values.AsyncIterator: SendableMetatype {
        HTTPClientRequestBody(content: .paced(HTTPPacedBody(sequence), length: length))
    }

    /// The bytes `range` (offsets) of `file`, with `Content-Length`, sent by
    /// the connection's stream a chunk at a time, the next once the last is
    /// handed on (`ByteStream.write(_:range:)`: `sendfile(2)` over TCP), so
    /// a slow server holds one chunk in memory. A file that ends before the
    /// range does fails the request and closes the connection.
    public static func file(_ file: OpenFile, range: Range<Int64>) -> HTTPClientRequestBody {
        HTTPClientRequestBody(content: .file(file, range: range))
    }

    /// The byte count when it is known before the body is sent.
    public var length: Int? {
        switch content {
        case .bytes(let bytes): bytes.count
        case .stream(_, let length), .paced(_, let length): length
        case .file(_, let range): Int(range.count)
        }
    }

    /// Whether the body can be sent again (a retry, a redirect that keeps
    /// it): bytes and files can, a stream or a sequence cannot.
    var isReplayable: Bool {
        switch content {
        case .stream, .paced: false
        case .bytes, .file: true
        }
    }
}
