import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == LoopGroup {
    /// Listens on `host`:`port` and serves each connection with `handler`,
    /// on the loop `options.distribution` places it on. Succeeds with the
    /// `Server` once it listens (the address has the port the kernel chose
    /// for port 0), on one of the group's loop threads.
    ///
    /// `handler` is called on the connection's loop thread, and the
    /// connection's whole chain runs there; the `Completable` it returns is
    /// the connection's life (see `Server`). Connections of different loops
    /// never meet in one chain.
    ///
    /// Fails with the `UVError` of the socket calls (`EADDRINUSE`,
    /// `EACCES`), a bad address (`EINVAL`), or a name that does not resolve.
    /// Disposing before it succeeded closes the listening sockets.
    public func serve(
        host: String, port: Int, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TCPConnection>) -> Completable
    ) -> Single<Server> {
        serve(host: host, port: port, options: options, connection: { $0 }, handler: handler)
    }

    /// Listens on `host`:`port` and serves each connection as
    /// `serve(host:port:options:handler:)` does, with `connection`, the
    /// per-connection factory, between the accepted `TCPConnection` and the
    /// handler: it wraps each connection in the stream the handler gets (a
    /// TLS or protocol layer, any `ByteStream`), on the connection's loop
    /// thread. The server closes what the factory made (`close(.afterWrites)`)
    /// when the handler ends, and watches and resets the connection
    /// underneath.
    public func serve<Connection: ByteStream>(
        host: String, port: Int, options: ServerOptions = ServerOptions(),
        connection: @escaping @Sendable (TCPConnection) -> Connection,
        handler: @escaping @Sendable (ServedConnection<Connection>) -> Completable
    ) -> Single<Server> {
        ServerStart.serve(loops: base.loops, host: host, port: port, options: options, factory: ConnectionFactory(TCPConnection.self, wrap: connection, handler: handler))
    }

    /// Listens on the Unix-domain socket `path` and serves each connection
    /// with `handler`, spread over the group's loops as `serve(host:port:)`
    /// spreads TCP connections, with the same limits, idle timeout and
    /// drain. Succeeds with the `Server` once it listens.
    ///
    /// `path` follows `loop.rx.listen(unixPath:)`: a stale socket file
    /// (nobody answers) is replaced, a live server's socket or a file that
    /// is not a socket fails with `EADDRINUSE`, a leading NUL is a Linux
    /// abstract name, and `mode` (for example `0o600`) is set on the file
    /// before it listens. The file is removed when the server stops
    /// accepting. `ConnectionDistribution.reusePort` needs a TCP port: it
    /// fails with `EINVAL`.
    public func serve(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<UnixConnection>) -> Completable
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options, connection: { $0 }, handler: handler)
    }

    /// Listens on the Unix-domain socket `path` as
    /// `serve(unixPath:mode:options:handler:)` does, with `connection`, the
    /// per-connection factory, between each accepted `UnixConnection` and
    /// the handler (see `serve(host:port:options:connection:handler:)`).
    public func serve<Connection: ByteStream>(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(),
        connection: @escaping @Sendable (UnixConnection) -> Connection,
        handler: @escaping @Sendable (ServedConnection<Connection>) -> Completable
    ) -> Single<Server> {
        ServerStart.serve(loops: base.loops, unixPath: path, mode: mode, options: options, factory: ConnectionFactory(UnixConnection.self, wrap: connection, handler: handler))
    }
}

extension Reactive where Base == Loop {
    /// Listens on `host`:`port` and serves each connection with `handler` on
    /// this loop: `LoopGroup`'s `serve` with one loop. A `Server` limits,
    /// counts, times out and drains the connections a hand-written
    /// `listen(...).flatMap` would leave to the daemon.
    public func serve(
        host: String, port: Int, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TCPConnection>) -> Completable
    ) -> Single<Server> {
        serve(host: host, port: port, options: options, connection: { $0 }, handler: handler)
    }

    /// `serve(host:port:options:handler:)` with a per-connection factory
    /// between each accepted `TCPConnection` and the handler: `LoopGroup`'s
    /// `serve(host:port:options:connection:handler:)` with one loop.
    public func serve<Connection: ByteStream>(
        host: String, port: Int, options: ServerOptions = ServerOptions(),
        connection: @escaping @Sendable (TCPConnection) -> Connection,
        handler: @escaping @Sendable (ServedConnection<Connection>) -> Completable
    ) -> Single<Server> {
        ServerStart.serve(loops: [base], host: host, port: port, options: options, factory: ConnectionFactory(TCPConnection.self, wrap: connection, handler: handler))
    }

    /// Listens on the Unix-domain socket `path` and serves each connection
    /// with `handler` on this loop: `LoopGroup`'s `serve(unixPath:)` with
    /// one loop.
    public func serve(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<UnixConnection>) -> Completable
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options, connection: { $0 }, handler: handler)
    }

    /// `serve(unixPath:mode:options:handler:)` with a per-connection factory
    /// between each accepted `UnixConnection` and the handler.
    public func serve<Connection: ByteStream>(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(),
        connection: @escaping @Sendable (UnixConnection) -> Connection,
        handler: @escaping @Sendable (ServedConnection<Connection>) -> Completable
    ) -> Single<Server> {
        ServerStart.serve(loops: [base], unixPath: path, mode: mode, options: options, factory: ConnectionFactory(UnixConnection.self, wrap: connection, handler: handler))
    }
}
