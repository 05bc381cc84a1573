import RxUV

/// One WebSocket frame (RFC 6455 §5.2), its payload unmasked.
///
/// What `WebSocketFrameDecoder` cuts from a stream and `WebSocketFrameEncoder`
/// writes to one. The mask is not part of the value: a decoder removes it, an
/// encoder for the client role adds a fresh one.
public struct WebSocketFrame: Sendable, Hashable, CustomStringConvertible {
    /// `true` on the last frame of a message (and on every control frame).
    public var fin: Bool
    /// The reserved bits, empty unless an extension uses them.
    public var reservedBits: WebSocketReservedBits
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The application's bytes (and an extension's), unmasked.
    public var payload: ByteBuffer

    /// A frame of `opcode` carrying `payload`; by default the last of its
    /// message, with no reserved bit.
    public init(fin: Bool = true, reservedBits: WebSocketReservedBits = [], opcode: WebSocketOpcode, payload: ByteBuffer = ByteBuffer()) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.payload = payload
    }

    /// `text fin 5 bytes`, `continuation 3 bytes rsv1`.
    public var description: String {
        var parts = ["\(opcode)"]
        if fin { parts.append("fin") }
        parts.append("\(payload.count) bytes")
        if reservedBits.contains(.rsv1) { parts.append("rsv1") }
        if reservedBits.contains(.rsv2) { parts.append("rsv2") }
        if reservedBits.contains(.rsv3) { parts.append("rsv3") }
        return parts.joined(separator: " ")
    }
}
