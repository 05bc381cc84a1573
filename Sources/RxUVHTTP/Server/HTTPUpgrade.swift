import RxCore
import RxUV

/// The protocol a connection switches to after a `101 Switching Protocols`
/// (RFC 9110 §7.8, §15.2.2): what `HTTPServerResponse.switchingProtocols`
/// carries. Once the server has written the 101's head, HTTP is over on
/// the connection: the server reads no more requests, and `run` is given
/// the connection (`HTTPUpgradedConnection`) to speak the new protocol on
/// it. The `Completable` `run` returns is the connection's life from then
/// on: when it completes (or fails, which is reported), the server closes
/// the stream after its writes; disposing it (the server's reset, or its
/// drain's deadline) must stop everything it started.
public struct HTTPUpgrade: Sendable {
    let run: @Sendable (HTTPUpgradedConnection) -> Completable

    /// An upgrade that speaks its protocol through `run`, called on the
    /// connection's loop thread once the 101's head has been handed to
    /// the stream.
    public init(_ run: @escaping @Sendable (HTTPUpgradedConnection) -> Completable) {
        self.run = run
    }
}

/// A connection after its `101 Switching Protocols`: the stream (TCP, TLS
/// or any other `ByteStream` the server made), with no reader (the HTTP
/// decoder is gone and no byte after the request's head was taken by it)
/// and its writes in order after the 101's head.
// @unchecked Sendable: as `ServedConnection`, whose parts these are: the
// stream and the loop are Sendable, and `quiesce` is an Observable, which
// may be subscribed from any thread.
public struct HTTPUpgradedConnection: @unchecked Sendable {
    /// The connection's stream: read it with `receivedData` (what `rx.data`
    /// returns for a concrete stream) or `inbound`, write with `write(_:)`.
    public let stream: any ByteStream
    /// The loop the stream lives on; `run` is called on its thread.
    public let loop: Loop
    /// Emits once, then completes, when the server starts to drain: the
    /// protocol should say goodbye (a WebSocket's close with 1001) and end
    /// its `Completable`. On the loop thread; at once when the server was
    /// already draining.
    public let quiesce: Observable<Void>
    /// The server's name, for reports.
    public let server: String
    /// The peer, for logs (`127.0.0.1:53122`, a socket path).
    public let peer: String?
}
