import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// A response's body as it arrives: an `Observable` of buffers (`bytes`),
/// a whole buffer up to a limit (`collect(upTo:)`), or an `AsyncSequence`
/// with backpressure (`values`).
///
/// Until it is read, the client holds up to
/// `HTTPClientConfiguration.responseBufferSize` bytes of it, then stops
/// reading the connection, so a server that sends faster than the caller
/// reads fills its own socket, not the client's memory. Read to its end,
/// the connection goes back to the pool; disposed before the end, or let
/// go unread (the last reference to it dropped), the connection is closed.
public final class HTTPClientResponseBody: Sendable {
    package let source: HTTPBodySource?
    /// The connection that switched protocols, for the body of a `101`
    /// that answered an upgrade (what the server sends after it).
    let upgraded: HTTPClientConnection?

    init(source: HTTPBodySource?, upgraded: HTTPClientConnection? = nil) {
        self.source = source
        self.upgraded = upgraded
    }

    deinit {
        source?.abandon()
    }

    /// The length the server declared (`Content-Length`), 0 without a
    /// body, `nil` for a chunked one or one the close ends.
    public var declaredLength: Int? {
        guard let source else { return 0 }
        return source.declaredLength
    }

    /// The trailer fields the server sent after the body (a chunked
    /// body's trailer section over HTTP/1.1, a trailing HEADERS frame over
    /// HTTP/2), as sent: known once the body has ended, so read when
    /// `bytes` completes, `collect(upTo:)` succeeds or `values` ends; `nil`
    /// before that, and when none came. Any thread.
    public var trailerFields: HTTPFields? {
        source?.trailerFields
    }

    /// The body's bytes, one buffer per piece read, on the connection's
    /// loop thread: first what was held before the subscription, then the
    /// rest as it arrives. Completes at the body's end (at once for no
    /// body); fails with the connection's read error,
    /// `HTTPClientError.connectionClosed` for a body cut short, the
    /// `HTTPParseError` of a malformed body, or `.requestTimeout`. One
    /// subscriber: a second fails with `EBUSY`. Disposing before the end
    /// closes the connection.
    public var bytes: Observable<ByteBuffer> {
        HTTPBodyReading.bytes(source, owner: self)
    }

    /// The whole body as one buffer, on the connection's loop thread;
    /// fails with `HTTPClientError.bodyTooLarge` once it passes
    /// `maxLength` bytes (at once when its declared length does), and the
    /// connection is closed.
    public func collect(upTo maxLength: Int) -> Single<ByteBuffer> {
        HTTPBodyReading.collect(source, owner: self, upTo: maxLength) {
            HTTPClientError(.bodyTooLarge, "the response's body is longer than \(maxLength) bytes")
        }
    }

    /// The body as an `AsyncSequence` with backpressure: while the
    /// consumer holds more than `highWatermark` bytes the connection stops
    /// reading, and reads again at `lowWatermark`. Ends at the body's end;
    /// throws what `bytes` fails with. Ending the iteration early closes
    /// the connection.
    public func values(highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024) -> ObservableValues<ByteBuffer> {
        HTTPBodyReading.values(source, owner: self, highWatermark: highWatermark, lowWatermark: lowWatermark)
    }

    /// `values(highWatermark:lowWatermark:)` at 256 KiB and 64 KiB.
    public var values: ObservableValues<ByteBuffer> {
        values()
    }
}
