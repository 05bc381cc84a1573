import RxUV

/// Turns WebSocket frames into bytes (RFC 6455 §5.2) for one side of the
/// connection: a `FrameEncoder`, so `encodeFrames` and
/// `write(_:using:)` send frames on a stream.
///
/// Each frame goes as its header, in the shortest length form, then its
/// payload. A client masks every frame with a fresh key from
/// `makeMaskingKey` (by default `WebSocketMaskingKey.random()`, the
/// system's random source), so its payload goes in a new, masked buffer; a
/// server sends frames unmasked, the payload buffer as it is (no copy).
/// Throws a `WebSocketEncodingError` for a frame the protocol forbids to
/// send (a control frame without FIN or over 125 bytes), appending nothing.
public struct WebSocketFrameEncoder: FrameEncoder, Sendable {
    public typealias Frame = WebSocketFrame

    /// The side that sends the frames.
    public let role: WebSocketRole
    /// Where a client's masking keys come from, one call per frame; called
    /// on the thread that encodes.
    public let makeMaskingKey: @Sendable () -> WebSocketMaskingKey

    /// An encoder of the frames `role` sends; a client's masking keys from
    /// `makeMaskingKey` (tests pass a fixed key; the default draws each from
    /// the system's random source, as RFC 6455 §5.3 requires).
    public init(role: WebSocketRole, makeMaskingKey: @escaping @Sendable () -> WebSocketMaskingKey = { WebSocketMaskingKey.random() }) {
        self.role = role
        self.makeMaskingKey = makeMaskingKey
    }

    /// Appends `frame`'s header and payload (two buffers), or throws a
    /// `WebSocketEncodingError` and appends nothing.
    public func encode(_ frame: WebSocketFrame, into buffers: inout [ByteBuffer]) throws(WebSocketEncodingError) {
        if frame.opcode.isControl {
            guard frame.fin else { throw .fragmentedControlFrame(frame.opcode) }
            guard frame.payload.count <= 125 else { throw .controlFrameTooLong(frame.opcode, length: frame.payload.count) }
        }
        let key = role.sendsMaskedFrames ? makeMaskingKey() : nil
        buffers.append(
            WebSocketFrameHeader.bytes(
                fin: frame.fin, reservedBits: frame.reservedBits, opcode: frame.opcode, payloadLength: frame.payload.count, maskingKey: key))
        if let key {
            if !frame.payload.isEmpty { buffers.append(WebSocketMasking.masked(frame.payload, with: key)) }
        } else if !frame.payload.isEmpty {
            buffers.append(frame.payload)
        }
    }

    /// `frame` as one buffer (header and payload joined).
    public func encode(_ frame: WebSocketFrame) throws(WebSocketEncodingError) -> ByteBuffer {
        var buffers: [ByteBuffer] = []
        try encode(frame, into: &buffers)
        return ByteBuffer(concatenating: buffers)
    }
}
