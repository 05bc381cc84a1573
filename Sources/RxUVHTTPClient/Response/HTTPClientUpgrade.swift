import HTTPTypes
import RxUV

/// A connection the server switched to another protocol (`101 Switching
/// Protocols`, RFC 9110 §7.8), which `HTTPClient.rx.upgrade` gives: the
/// 101's head, the stream to write the new protocol on, and everything the
/// server sends after the head as it arrives.
///
/// The connection has left its pool: it is the caller's until it closes
/// (`close()`, the server's close, or `inbound` let go), and the client's
/// `shutdown()` neither waits for it nor closes it.
public final class HTTPClientUpgrade: Sendable {
    /// The `101`'s status and header fields.
    public let head: HTTPResponse
    /// The connection's stream (TCP, or TLS for `https`): write the new
    /// protocol with `write(_:)`. Its reading is the client's: read
    /// through `inbound`.
    public let stream: any ByteStream
    /// Every byte the server sends after the 101's head (those that came
    /// with the head first), with backpressure as a response body's: up to
    /// `HTTPClientConfiguration.responseBufferSize` held before its reader
    /// subscribes, then the connection's reading held while the reader has
    /// no room. Ends cleanly when the server closes the connection; fails
    /// with the read's error. Disposing it, or letting it go unread, closes
    /// the connection.
    public let inbound: HTTPClientResponseBody
    let connection: HTTPClientConnection

    init(head: HTTPResponse, stream: any ByteStream, inbound: HTTPClientResponseBody, connection: HTTPClientConnection) {
        self.head = head
        self.stream = stream
        self.inbound = inbound
        self.connection = connection
    }

    /// Closes the connection once its queued writes are flushed (the new
    /// protocol's goodbye, say), from any thread; `inbound` then ends.
    public func close() {
        let connection = connection
        connection.loop.enter { connection.closeUpgraded() }
    }
}
