import HTTPTypes
import RxUVHTTP

/// A client's opening handshake, checked as a server must (RFC 6455
/// §4.2.1): a `GET` over HTTP/1.1 that asks to upgrade to `websocket`
/// (`Upgrade: websocket`, `upgrade` in `Connection`), with a
/// `Sec-WebSocket-Key` of 16 bytes in base64 and `Sec-WebSocket-Version:
/// 13`; what it offers (subprotocols, extensions) and its `Origin`.
public struct WebSocketOpeningRequest: Sendable {
    /// The client's `Sec-WebSocket-Key`.
    public let key: String
    /// The subprotocols it offers, in its order of preference
    /// (`Sec-WebSocket-Protocol`).
    public let subprotocols: [String]
    /// The extensions it offers, as written (`Sec-WebSocket-Extensions`).
    public let extensions: [String]
    /// Its `Origin`, for a server that checks where a browser's page came
    /// from (§10.2).
    public let origin: String?

    /// Checks `request`; throws a `WebSocketHandshakeError` whose status is
    /// the answer (`response(for:)`): 400 for a request that is not a
    /// WebSocket opening handshake, 426 for another version than 13.
    public init(_ request: HTTPServerRequest) throws(WebSocketHandshakeError) {
        let fields = request.head.headerFields
        guard request.head.method == .get else {
            throw WebSocketHandshakeError(status: .badRequest, reason: "a WebSocket handshake is a GET, not \(request.head.method)")
        }
        guard request.asksToUpgrade, WebSocketHandshake.lists("websocket", in: .upgrade, of: fields) else {
            throw WebSocketHandshakeError(status: .badRequest, reason: "not an upgrade to websocket (Upgrade: websocket, Connection: Upgrade, HTTP/1.1)")
        }
        let versions = fields[values: .secWebSocketVersion]
        guard versions == ["13"] else {
            throw WebSocketHandshakeError(status: .upgradeRequired, reason: "Sec-WebSocket-Version \(versions.joined(separator: ", ")) is not 13")
        }
        let keys = fields[values: .secWebSocketKey]
        guard keys.count == 1, WebSocketHandshake.isValidKey(keys[0]) else {
            throw WebSocketHandshakeError(status: .badRequest, reason: "Sec-WebSocket-Key is not one value of 16 bytes in base64")
        }
        key = keys[0]
        subprotocols = WebSocketHandshake.listMembers(.secWebSocketProtocol, in: fields)
        extensions = WebSocketHandshake.listMembers(.secWebSocketExtensions, in: fields)
        origin = fields[.origin]
    }

    /// The `101`'s fields that accept this request: `Sec-WebSocket-Accept`,
    /// `Sec-WebSocket-Protocol` when `subprotocol` (one the client offered)
    /// is chosen, and `Sec-WebSocket-Extensions` when `compression` (the
    /// answer to one of its offers) is.
    public func acceptFields(subprotocol: String?, compression: WebSocketDeflateParameters? = nil) -> HTTPFields {
        var fields: HTTPFields = [.secWebSocketAccept: WebSocketHandshake.accept(forKey: key)]
        if let subprotocol { fields[.secWebSocketProtocol] = subprotocol }
        if let compression { fields[.secWebSocketExtensions] = compression.description }
        return fields
    }

    /// The answer to a refused handshake: its status, the reason as text,
    /// and for a 426 `Sec-WebSocket-Version: 13` (§4.4).
    public static func response(for error: WebSocketHandshakeError) -> HTTPServerResponse {
        var response = HTTPServerResponse.text(error.reason + "\n", status: error.status)
        if error.status == .upgradeRequired {
            response.head.headerFields[.secWebSocketVersion] = "13"
        }
        return response
    }
}
