import HTTPTypes

/// An opening handshake that cannot go on (RFC 6455 §4): on the server
/// side, what the client sent, with the response that refuses it; on the
/// client side, what the server answered.
public struct WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status a server answers with: `400 Bad Request`, or `426
    /// Upgrade Required` for a version other than 13 (with
    /// `Sec-WebSocket-Version: 13`, §4.4); for the client's checks, the
    /// status the server answered.
    public let status: HTTPResponse.Status
    /// What was wrong.
    public let reason: String

    /// An error with `status` and `reason`.
    public init(status: HTTPResponse.Status, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// `400: no Sec-WebSocket-Key`.
    public var description: String {
        "\(status.code): \(reason)"
    }
}
