import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == LoopGroup {
    /// Listens on `host`:`port` and serves HTTP/1.1 with `handler` on every
    /// connection, spread over the group's loops: `serve(host:port:options:)`
    /// with `ServedConnection.serveHTTP(options:handler:)` as its handler,
    /// so the server limits, counts, times out and drains HTTP connections
    /// as it does any other (a drain answers the request in hand with
    /// `Connection: close`, then closes). Succeeds with the `Server` once
    /// it listens; fails as `serve` does (`EADDRINUSE`...).
    ///
    /// The handler is called on the connection's loop thread, one request
    /// of a connection at a time; pipelined requests wait (the connection
    /// stops reading) and are answered in order, the answers a read's
    /// requests get while it is handled written together. Over TLS, or any
    /// other stream: `serve(…) { $0.serveHTTP(handler:) }`.
    public func serveHTTP(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP(options: http, handler: handler) }
    }

    /// `serveHTTP(host:port:options:http:handler:)` with an `async`
    /// handler, run in a Task on the connection's loop.
    public func serveHTTP(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPAsyncHandler
    ) -> Single<Server> {
        serveHTTP(host: host, port: port, options: options, http: http, handler: httpHandler(handler))
    }

    /// Serves HTTP/1.1 on the Unix-domain socket `path`, as
    /// `serveHTTP(host:port:options:http:handler:)` does over TCP (the
    /// socket file as `serve(unixPath:mode:options:)` makes it).
    public func serveHTTP(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options) { $0.serveHTTP(options: http, handler: handler) }
    }
}

extension Reactive where Base == Loop {
    /// Listens on `host`:`port` and serves HTTP/1.1 with `handler` on this
    /// loop: `LoopGroup`'s `serveHTTP(host:port:options:http:handler:)`
    /// with one loop.
    public func serveHTTP(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP(options: http, handler: handler) }
    }

    /// `serveHTTP(host:port:options:http:handler:)` with an `async`
    /// handler, run in a Task on this loop.
    public func serveHTTP(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPAsyncHandler
    ) -> Single<Server> {
        serveHTTP(host: host, port: port, options: options, http: http, handler: httpHandler(handler))
    }

    /// Serves HTTP/1.1 on the Unix-domain socket `path` on this loop.
    public func serveHTTP(
        unixPath path: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(unixPath: path, mode: mode, options: options) { $0.serveHTTP(options: http, handler: handler) }
    }
}
