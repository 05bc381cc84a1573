import RxCore
import RxUV
import RxUVHTTP
import RxUVTLS

extension Reactive where Base == LoopGroup {
    /// Listens on `host`:`port` and serves cleartext HTTP/2 (`h2c`, prior
    /// knowledge) with `handler` on every connection, spread over the
    /// group's loops: `serve(host:port:options:)` with
    /// `ServedConnection.serveHTTP2(options:http2:handler:)` as its
    /// handler, so the server limits, counts, times out and drains HTTP/2
    /// connections as it does any other. Succeeds with the `Server` once it
    /// listens; fails as `serve` does (`EADDRINUSE`...).
    public func serveHTTP2(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP2(options: http, http2: http2, handler: handler) }
    }

    /// Listens on `host`:`port` and serves the `versions` of HTTP asked for
    /// over cleartext with `handler`: for both, each connection speaks
    /// whichever its client's first bytes do, HTTP/2 with prior knowledge
    /// or HTTP/1.1 (`ServedConnection.serveHTTP(versions:options:http2:handler:)`).
    public func serveHTTP(
        host: String, port: Int, versions: HTTPVersions, options: ServerOptions = ServerOptions(),
        http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP(versions: versions, options: http, http2: http2, handler: handler) }
    }

    /// Listens on `host`:`port` and serves HTTPS with `handler`: TLS with
    /// `context`, then HTTP/2 or HTTP/1.1 as ALPN agreed
    /// (`ServedConnection.serveHTTP(versions:options:http2:handler:)`);
    /// `context`'s configuration offers `["h2", "http/1.1"]`.
    public func serveHTTPS(
        host: String, port: Int, tls context: TLSContext, versions: HTTPVersions = [.http1, .http2], options: ServerOptions = ServerOptions(),
        http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, tls: context, options: options) {
            $0.serveHTTP(versions: versions, options: http, http2: http2, handler: handler)
        }
    }
}

extension Reactive where Base == Loop {
    /// Listens on `host`:`port` and serves cleartext HTTP/2 on this loop:
    /// `LoopGroup`'s `serveHTTP2(host:port:options:http:http2:handler:)`
    /// with one loop.
    public func serveHTTP2(
        host: String, port: Int, options: ServerOptions = ServerOptions(), http: HTTPServerOptions = HTTPServerOptions(),
        http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP2(options: http, http2: http2, handler: handler) }
    }

    /// Listens on `host`:`port` and serves the `versions` of HTTP asked for
    /// over cleartext on this loop: `LoopGroup`'s
    /// `serveHTTP(host:port:versions:options:http:http2:handler:)` with one
    /// loop.
    public func serveHTTP(
        host: String, port: Int, versions: HTTPVersions, options: ServerOptions = ServerOptions(),
        http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, options: options) { $0.serveHTTP(versions: versions, options: http, http2: http2, handler: handler) }
    }

    /// Listens on `host`:`port` and serves HTTPS (HTTP/2 or HTTP/1.1 by
    /// ALPN) on this loop: `LoopGroup`'s
    /// `serveHTTPS(host:port:tls:versions:options:http:http2:handler:)`
    /// with one loop.
    public func serveHTTPS(
        host: String, port: Int, tls context: TLSContext, versions: HTTPVersions = [.http1, .http2], options: ServerOptions = ServerOptions(),
        http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Single<Server> {
        serve(host: host, port: port, tls: context, options: options) {
            $0.serveHTTP(versions: versions, options: http, http2: http2, handler: handler)
        }
    }
}
