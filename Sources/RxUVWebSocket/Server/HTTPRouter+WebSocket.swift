import HTTPTypes
import RxCore
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
                WebSocket.serving(connection, request: request, subprotocol: chosen, compression: deflate, options: options, handler: handler)
            }
            let fields = opening.acceptFields(subprotocol: chosen, compression: deflate)
            return .just(.switchingProtocols(to: "websocket", headerFields: fields, upgrade))
        }
    }
}

extension WebSocket {
    /// The upgraded connection's life: the socket on its stream, the
    /// handler's work, the drain's close.
    static func serving(
        _ connection: HTTPUpgradedConnection, request: HTTPServerRequest, subprotocol: String?, compression: WebSocketDeflateParameters?,
        options: WebSocketOptions, handler: @escaping WebSocketHandler
    ) -> Completable {
        Completable.create { observer in
            let socket = WebSocket(
                stream: connection.stream, incoming: connection.stream.receivedData, holdReading: { [stream = connection.stream] in stream.holdReading($0) },
                role: .server, subprotocol: subprotocol,
                compression: compression, options: options)
            let work = handler(socket, request).subscribe { event in
                switch event {
                case .completed:
                    socket.close()
                case .error(let error):
                    report(error, ReportContext(loop: connection.loop, server: connection.server, peer: connection.peer))
                    socket.close(code: .internalError)
                }
            }
            let draining = connection.quiesce.subscribe(onNext: { socket.close(code: .goingAway) })
            // The connection's life is the socket's: it ends when the socket does.
            _ = socket.whenEnded { _ in observer(.completed) }
            return Disposables.create {
                work.dispose()
                draining.dispose()
                socket.stop()
            }
        }
    }
}
