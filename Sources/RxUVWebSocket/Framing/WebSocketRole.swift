/// Which end of a WebSocket connection this side is: it decides which frames
/// are masked (RFC 6455 §5.1, §5.3).
///
/// A client masks every frame it sends and receives only unmasked frames;
/// a server receives only masked frames and sends them unmasked.
public enum WebSocketRole: Sendable, Hashable, CustomStringConvertible {
    /// The side that opened the connection: sends masked frames.
    case client
    /// The side that accepted it: receives masked frames.
    case server

    /// `true` when this side's incoming frames must be masked (a server's).
    public var receivesMaskedFrames: Bool {
        self == .server
    }

    /// `true` when this side masks the frames it sends (a client's).
    public var sendsMaskedFrames: Bool {
        self == .client
    }

    /// `client` or `server`.
    public var description: String {
        switch self {
        case .client: "client"
        case .server: "server"
        }
    }
}
