import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == LoopGroup {
    /// Listens on `host`:`port` and serves each connection over TLS with
    /// `handler`: `serve(host:port:options:handler:)` with every accepted
    /// connection wrapped as the server side of a `TLSStream` of `context`
    /// (the per-connection factory), on the connection's loop.
    ///
    /// The handler runs at once, while the handshake runs: what it writes
    /// is held until the handshake ends, its read subscription gets
    /// plaintext after it, and `connection.session` (the peer's
    /// certificate for mutual TLS) is set once `connection.handshake`
    /// completes. A failed handshake fails the handler's reads with the
    /// `TLSError`. The server limits, times out and drains TLS
    /// connections as it does plain ones; a drained connection says
    /// `close_notify` before it closes.
    public func serve(
        host: String, port: Int, tls context: TLSContext, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TLSStream>) -> Completable
    ) -> Single<Server> {
        serve(host: host, port: port, options: options, connection: { TLSStream.served(over: $0, context: context) }, handler: handler)
    }

    /// Listens on the Unix-domain socket `path` and serves each connection
    /// over TLS, as `serve(host:port:tls:options:handler:)` does.
    public func serve(
        unixPath path: String, mode: mode_t? = nil, tls context: TLSContext, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TLSStream>) -> Completable
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options, connection: { TLSStream.served(over: $0, context: context) }, handler: handler)
    }
}

extension Reactive where Base == Loop {
    /// Listens on `host`:`port` and serves each connection over TLS on this
    /// loop: `LoopGroup`'s `serve(host:port:tls:options:handler:)` with one
    /// loop.
    public func serve(
        host: String, port: Int, tls context: TLSContext, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TLSStream>) -> Completable
    ) -> Single<Server> {
        serve(host: host, port: port, options: options, connection: { TLSStream.served(over: $0, context: context) }, handler: handler)
    }

    /// Listens on the Unix-domain socket `path` and serves each connection
    /// over TLS on this loop.
    public func serve(
        unixPath path: String, mode: mode_t? = nil, tls context: TLSContext, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TLSStream>) -> Completable
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options, connection: { TLSStream.served(over: $0, context: context) }, handler: handler)
    }

    /// Listens on `host`:`port` (`listen(host:port:backlog:onListening:)`)
    /// and emits each accepted connection as the server side of a
    /// `TLSStream` of `context`, while its handshake runs. Each stream
    /// closes when its read subscription ends, as an accepted TCP
    /// connection does. Disposing stops listening; streams already emitted
    /// stay open.
    public func listen(
        host: String, port: Int, tls context: TLSContext, backlog: Int = 4096,
        onListening: (@Sendable (SocketAddress) -> Void)? = nil
    ) -> Observable<TLSStream> {
        listen(host: host, port: port, backlog: backlog, onListening: onListening).map { connection in
            TLSStream.server(over: connection, context: context)
        }
    }
}

extension TLSStream {
    /// The server side over a `Server`'s connection, which the server closes.
    static func served(over transport: any ByteStream, context: TLSContext) -> TLSStream {
        TLSStream(transport: transport, context: context, role: .server, serverName: nil, lifetime: .owner)
    }
}
