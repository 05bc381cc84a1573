import RxCore
import RxUV

extension ServedConnection {
    /// Serves HTTP/1.1 on this connection with `handler`: the connection's
    /// life as a `Server` handler returns it, for
    /// `serve(…) { $0.serveHTTP(handler: handler) }` over any stream the
    /// server's per-connection factory makes (TLS included).
    ///
    /// Completes when the connection should close (after a response with
    /// `Connection: close`, the peer's end of input with nothing to answer,
    /// a malformed request's 4xx, a timeout, or the server's drain once the
    /// request in hand is answered); the server then closes it after its
    /// writes. Disposing (the server's reset) stops it: the handler's
    /// `Single` is disposed. On the connection's loop thread.
    public func serveHTTP(options: HTTPServerOptions = HTTPServerOptions(), handler: @escaping HTTPHandler) -> Completable {
        HTTPServerConnection(self, options: options, handler: handler).life
    }

    /// `serveHTTP(options:handler:)` with an `async` handler, run on the
    /// connection's loop.
    public func serveHTTP(options: HTTPServerOptions = HTTPServerOptions(), handler: @escaping HTTPAsyncHandler) -> Completable {
        serveHTTP(options: options, handler: httpHandler(handler))
    }
}
