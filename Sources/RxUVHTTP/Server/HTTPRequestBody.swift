import HTTPTypes
import RxCore
import RxUV

/// A request's body as it arrives: an `Observable` of buffers (`bytes`),
/// a whole buffer up to a limit (`collect(upTo:)`), or an `AsyncSequence`
/// with backpressure (`values`).
///
/// Until the handler reads it, the server holds up to
/// `HTTPServerOptions.bodyBufferSize` bytes of it and then stops reading
/// the connection, so a client that uploads to a handler that never reads
/// fills its own socket, not the server's memory. A client that sent
/// `Expect: 100-continue` is told `100 Continue` when the handler first
/// subscribes. A body the handler leaves unread when it answers is read
/// and dropped (or, when the client still waits for `100 Continue`, the
/// connection closes after the answer).
public final class HTTPRequestBody: Sendable {
    let source: HTTPBodySource?

    package init(source: HTTPBodySource?) {
        self.source = source
    }

    /// The body of every request without one.
    package static let none = HTTPRequestBody(source: nil)

    /// The length the client declared (`Content-Length`), 0 without a
    /// body, `nil` for a chunked one.
    public var declaredLength: Int? {
        guard let source else { return 0 }
        return source.declaredLength
    }

    /// The trailer fields the client sent after the body (a chunked
    /// body's trailer section over HTTP/1.1, a trailing HEADERS frame over
    /// HTTP/2), as sent: known once the body has ended, so read when
    /// `bytes` completes, `collect(upTo:)` succeeds or `values` ends; `nil`
    /// before that, and when none came. Bounded by the same limits as the
    /// head. Any thread.
    public var trailerFields: HTTPFields? {
        source?.trailerFields
    }

    /// The body's bytes, one buffer per piece read, on the connection's
    /// loop thread: first what was held before the subscription, then the
    /// rest as it arrives. Completes at the body's end (at once for no
    /// body); fails with the connection's read error or the
    /// `HTTPParseError` of a malformed body (the answer is then the parse
    /// error's). One subscriber: a second fails with `EBUSY`. Disposing
    /// drops the rest of the body as it arrives.
    public var bytes: Observable<ByteBuffer> {
        HTTPBodyReading.bytes(source)
    }

    /// The whole body as one buffer, on the connection's loop thread;
    /// fails with `HTTPError(.contentTooLarge)` (413) once it passes
    /// `maxLength` bytes, without holding more.
    public func collect(upTo maxLength: Int) -> Single<ByteBuffer> {
        HTTPBodyReading.collect(source, upTo: maxLength) { HTTPError(.contentTooLarge) }
    }

    /// The body as an `AsyncSequence` with backpressure: while the
    /// consumer holds more than `highWatermark` bytes the connection stops
    /// reading, and reads again at `lowWatermark` (as
    /// `ByteStream.inbound(highWatermark:lowWatermark:)`). Ends at the
    /// body's end; throws what `bytes` fails with.
    public func values(highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024) -> ObservableValues<ByteBuffer> {
        HTTPBodyReading.values(source, highWatermark: highWatermark, lowWatermark: lowWatermark)
    }

    /// `values(highWatermark:lowWatermark:)` at 256 KiB and 64 KiB.
    public var values: ObservableValues<ByteBuffer> {
        values()
    }
}
