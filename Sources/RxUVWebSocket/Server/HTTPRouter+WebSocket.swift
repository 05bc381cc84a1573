import HTTPTypes
@_spi(Bridge) import RxCore
import RxUV
import RxUVHTTP

/// What runs a server's socket: given the socket and the request that
/// opened it, its work as a `Completable` (read `messages`, `send`);
/// when it completes the socket closes with 1000, when it fails with 1011
/// (and the error is reported).
public typealias WebSocketHandler = @Sendable (WebSocket, HTTPServerRequest) -> Completable

extension HTTPRouter {
    /// Serves WebSocket at `pattern` (a `GET` route): checks the opening
    /// handshake (`WebSocketOpeningRequest`; a refusal is answered 400, or
    /// 426 with `Sec-WebSocket-Version: 13`), asks `acceptsOrigin` about
    /// the request's `Origin` (403 when it says no), chooses the first of
    /// `subprotocols` the client offers, accepts the client's first
    /// permessage-deflate offer it can when `options.compression` is set,
    /// answers `101` with `Sec-WebSocket-Accept` (and what it chose), and
    /// runs `handler` on the socket on the connection's loop. Over TLS too: the route is the same on any stream
    /// the server's factory makes.
    ///
    /// The connection lives as long as the socket: until the close
    /// handshake ends (either side's), the peer breaks the protocol, or the
    /// connection ends. The server's drain closes every socket with 1001
    /// (going away), waiting for the peer's Close up to
    /// `options.closeTimeout`.
    public mutating func webSocket(
        _ pattern: String, options: WebSocketOptions = WebSocketOptions(), subprotocols: [String] = [],
        acceptsOrigin: (@Sendable (String?) -> Bool)? = nil, handler: @escaping WebSocketHandler
    ) {
        let settings = WebSocketSettings(options)
        get(pattern) { request in
            let opening: WebSocketOpeningRequest
            do throws(WebSocketHandshakeError) {
                opening = try WebSocketOpeningRequest(request)
            } catch {
                return .just(WebSocketOpeningRequest.response(for: error))
            }
            if let acceptsOrigin, !acceptsOrigin(opening.origin) {
                return .just(.text("origin not allowed\n", status: .forbidden))
            }
            let chosen = subprotocols.first(where: opening.subprotocols.contains)
            let deflate = options.compression?.accept(opening.extensions)
            let upgrade = HTTPUpgrade { connection in
                Completable(
                    raw: WebSocketServing(connection, request: request, subprotocol: chosen, compression: deflate, settings: settings, handler: handler))
            }
            let fields = opening.acceptFields(subprotocol: chosen, compression: deflate)
            return .just(.switchingProtocols(to: "websocket", headerFields: fields, upgrade))
        }
    }
}
