import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

extension Reactive where Base == Loop {
    /// Opens a WebSocket to `url` (`ws://` or `wss://`) on this loop when
    /// subscribed, for code that keeps no `HTTPClient`: an `HTTPClient` is
    /// made with `configuration` (its TLS for `wss`: roots, a client
    /// certificate), opens the socket as `client.rx.webSocket` does (the
    /// same arguments, the same failures), and is shut down once the
    /// `Single` ends: the socket owns its connection, which left the
    /// client's pool. Succeeds with the socket on the loop thread; disposing
    /// before that stops the handshake and shuts the client down.
    public func webSocket(
        _ url: String, subprotocols: [String] = [], headerFields: HTTPFields = [:], options: WebSocketOptions = WebSocketOptions(),
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(), timeout: Duration? = nil
    ) -> Single<WebSocket> {
        let loop = base
        return Single.deferred {
            let client = HTTPClient(loop: loop, configuration: configuration)
            return client.rx.webSocket(url, subprotocols: subprotocols, headerFields: headerFields, options: options, timeout: timeout)
                .do(onDispose: { _ = client.shutdown().subscribe() })
        }
    }
}
