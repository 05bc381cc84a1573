import RxCore

/// One connection a `Server` accepted, as its handler gets it:
/// `Connection` is `TCPConnection` for a server made by
/// `serve(host:port:)`, `UnixConnection` for one made by
/// `serve(unixPath:)`, and whatever the per-connection factory makes for
/// one made with `serve(…, connection:handler:)`.
///
/// The handler runs on `loop`'s thread, and so does everything the
/// connection emits: a connection's whole chain stays on one loop.
// @unchecked Sendable: `quiesce` is an immutable Observable over a
// thread-safe subject; the rest is Sendable.
public struct ServedConnection<Connection: ByteStream>: @unchecked Sendable {
    /// The connection. It closes when the handler's `Completable` ends (once
    /// its writes are flushed), not when a read subscription ends: a handler
    /// may still answer after the peer's EOF (a half-close).
    public let connection: Connection
    /// The loop the connection lives on.
    public let loop: Loop
    /// Emits once, then completes, when the server starts to drain
    /// (`Server.drain`): the handler should finish (stop reading, say
    /// goodbye, let its writes flush) before the drain's deadline resets
    /// the connection. `take(until: quiesce)` on the read side is the usual
    /// answer. On the connection's loop thread; at once for a connection
    /// accepted while draining.
    public let quiesce: Observable<Void>
    /// The server's name in reports and metrics: its
    /// `ServerOptions.metricsLabel`, else the address it listens on
    /// (`127.0.0.1:8080`, a socket path).
    public let server: String
}

extension ServedConnection {
    /// The same connection as served through `connection`, a stream over
    /// this one's (bytes a protocol sniffer read handed back, as RxUVHTTP2
    /// does to choose between HTTP/1.1 and HTTP/2): the same loop, drain
    /// signal and server name.
    package func over<Other: ByteStream>(_ connection: Other) -> ServedConnection<Other> {
        ServedConnection<Other>(connection: connection, loop: loop, quiesce: quiesce, server: server)
    }
}
