import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

extension Reactive where Base == HTTPClient {
    /// Opens a WebSocket to `url` (`ws://` or `wss://`, or `http://` and
    /// `https://` for the same) when subscribed, and succeeds with the
    /// socket once the server has accepted the opening handshake (RFC 6455
    /// §4.1), on the connection's loop thread. The handshake goes as the
    /// client's upgrade (`rx.upgrade`: a pooled or new connection, TLS for
    /// `wss`) with a new `Sec-WebSocket-Key`, version 13, `subprotocols`
    /// offered, permessage-deflate offered when `options.compression` is
    /// set, and `headerFields` (an `Origin`, a cookie); the 101 is checked
    /// (`Upgrade`, `Connection`, `Sec-WebSocket-Accept`, a subprotocol
    /// among those offered, no extension but an answer to the offer).
    ///
    /// Fails with `HTTPClientError.invalidRequest` for a URL it cannot
    /// use, `.upgradeRefused` when the server answers another status, a
    /// `WebSocketHandshakeError` for a 101 that fails the checks (the
    /// connection is then closed), and as `rx.upgrade` fails otherwise.
    public func webSocket(
        _ url: String, subprotocols: [String] = [], headerFields: HTTPFields = [:], options: WebSocketOptions = WebSocketOptions(),
        timeout: Duration? = nil
    ) -> Single<WebSocket> {
        let request: HTTPRequest
        do {
            request = try HTTPRequest(method: .get, url: WebSocket.httpURL(url), headerFields: headerFields)
        } catch {
            return .error(error)
        }
        let handshake = WebSocketClientHandshake(subprotocols: subprotocols, compression: options.compression)
        var asking = request
        asking.headerFields.append(contentsOf: handshake.requestFields)
        return base.rx.upgrade(asking, to: "websocket", timeout: timeout).map { upgrade in
            do {
                let agreed = try handshake.check(upgrade.head)
                return WebSocket(
                    stream: upgrade.stream, incoming: upgrade.inbound.bytes, inboundBody: upgrade.inbound.source, role: .client,
                    subprotocol: agreed.subprotocol, compression: agreed.compression, settings: WebSocketSettings(options))
            } catch {
                upgrade.close()
                throw error
            }
        }
    }
}

extension WebSocket {
    /// `ws://` as `http://`, `wss://` as `https://` (RFC 6455 §3: the same
    /// authority and path); other URLs as they are.
    static func httpURL(_ url: String) -> String {
        let lower = url.prefix(6).lowercased()
        if lower.hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        if lower.hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        return url
    }
}
