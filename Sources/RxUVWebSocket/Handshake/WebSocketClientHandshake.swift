import HTTPTypes

/// The client's half of the opening handshake (RFC 6455 §4.1): the fields
/// its request carries, and the checks of the server's `101`.
struct WebSocketClientHandshake: Sendable {
    /// The request's `Sec-WebSocket-Key`.
    let key: String
    /// The subprotocols offered, in order.
    let subprotocols: [String]
    /// permessage-deflate, offered when set.
    let compression: WebSocketCompression?

    /// What the server's `101` agreed.
    struct Agreement {
        /// The subprotocol chosen, if any.
        var subprotocol: String?
        /// The permessage-deflate parameters, when the server accepted it.
        var compression: WebSocketDeflateParameters?
    }

    init(key: String = WebSocketHandshake.makeKey(), subprotocols: [String], compression: WebSocketCompression? = nil) {
        self.key = key
        self.subprotocols = subprotocols
        self.compression = compression
    }

    /// `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13` and, when offered,
    /// `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions` (the
    /// client's `Upgrade` and `Connection` are the HTTP client's upgrade's).
    var requestFields: HTTPFields {
        var fields: HTTPFields = [.secWebSocketKey: key, .secWebSocketVersion: "13"]
        if !subprotocols.isEmpty { fields[.secWebSocketProtocol] = subprotocols.joined(separator: ", ") }
        if let compression { fields[.secWebSocketExtensions] = compression.offers.map(\.description).joined(separator: ", ") }
        return fields
    }

    /// Checks the server's `101` (§4.1, the client's checks 1–6): `Upgrade:
    /// websocket`, `upgrade` in `Connection`, the accept value of the key,
    /// a subprotocol only among those offered, and no extension but an
    /// answer to the permessage-deflate offer. Returns what was agreed.
    func check(_ response: HTTPResponse) throws(WebSocketHandshakeError) -> Agreement {
        let fields = response.headerFields
        func refuse(_ reason: String) -> WebSocketHandshakeError {
            WebSocketHandshakeError(status: response.status, reason: reason)
        }
        guard WebSocketHandshake.lists("websocket", in: .upgrade, of: fields) else { throw refuse("the 101 has no Upgrade: websocket") }
        guard WebSocketHandshake.lists("upgrade", in: .connection, of: fields) else { throw refuse("the 101 has no Connection: Upgrade") }
        guard fields[values: .secWebSocketAccept] == [WebSocketHandshake.accept(forKey: key)] else {
            throw refuse("Sec-WebSocket-Accept does not match the key")
        }
        let chosen = WebSocketHandshake.listMembers(.secWebSocketProtocol, in: fields)
        guard chosen.count <= 1, chosen.allSatisfy(subprotocols.contains) else {
            throw refuse("Sec-WebSocket-Protocol \(chosen.joined(separator: ", ")) was not offered")
        }
        let extensions = WebSocketHandshake.listMembers(.secWebSocketExtensions, in: fields)
        guard let compression else {
            guard extensions.isEmpty else { throw refuse("Sec-WebSocket-Extensions in the 101, though none was offered") }
            return Agreement(subprotocol: chosen.first)
        }
        return Agreement(subprotocol: chosen.first, compression: try compression.agreement(extensions, status: response.status))
    }
}
