import RxUV

/// Turns WebSocket frames into bytes (RFC 6455 §5.2) for one side of the
/// connection: a `FrameEncoder`, so `encodeFrames` and
/// `write(_:using:)` send frames on a stream.
///
/// Each frame goes as its header, in the shortest length form, then its
/// payload. A client masks every frame with a fresh key from
/// `makeMaskingKey` (by default `WebSocketMaskingKey.random()`, the
/// system's random source), so its payload goes in a new, masked buffer; a
/// server sends frames unmasked: `encode(_:into:)` appends the payload
/// buffer as it is (no copy), `encode(_:)` copies it after the header into
/// one buffer.
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
        try Self.check(frame)
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

    /// `frame` as one buffer: its header, then its payload (masked on a
    /// client's side) copied after it; or throws a `WebSocketEncodingError`.
    public func encode(_ frame: WebSocketFrame) throws(WebSocketEncodingError) -> ByteBuffer {
        try Self.check(frame)
        return frame.payload.withUnsafeBytes { payload in
            encode(fin: frame.fin, reservedBits: frame.reservedBits, opcode: frame.opcode, payload: payload)
        }
    }

    /// A frame of `payload`'s bytes as one buffer, header and payload
    /// (masked on a client's side), made in one allocation and one copy:
    /// how a socket frames a message's bytes where they lie (a `String`'s
    /// UTF-8), with no buffer made for them first.
    ///
    /// - Precondition: a control frame has FIN and at most 125 bytes (what
    ///   `encode(_:)` checks, throwing, before it calls this).
    func encode(fin: Bool = true, reservedBits: WebSocketReservedBits = [], opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> ByteBuffer {
        precondition(!opcode.isControl || (fin && payload.count <= 125), "WebSocketFrameEncoder: a control frame the protocol forbids")
        let key = role.sendsMaskedFrames ? makeMaskingKey() : nil
        let headerLength = WebSocketFrameHeader.length(payloadLength: payload.count, masked: key != nil)
        return ByteBuffer(unsafeUninitializedCapacity: headerLength + payload.count) { memory in
            _ = WebSocketFrameHeader.write(
                fin: fin, reservedBits: reservedBits, opcode: opcode, payloadLength: payload.count, maskingKey: key, into: memory)
            let body = UnsafeMutableRawBufferPointer(rebasing: memory[headerLength...])
            if let key {
                WebSocketMasking.apply(key, from: payload, to: body)
            } else if let base = payload.baseAddress {
                body.baseAddress?.copyMemory(from: base, byteCount: payload.count)
            }
            return headerLength + payload.count
        }
    }

    /// Throws for a frame the protocol forbids to send: a control frame
    /// without FIN or over 125 bytes.
    private static func check(_ frame: WebSocketFrame) throws(WebSocketEncodingError) {
        if frame.opcode.isControl {
            guard frame.fin else { throw .fragmentedControlFrame(frame.opcode) }
            guard frame.payload.count <= 125 else { throw .controlFrameTooLong(frame.opcode, length: frame.payload.count) }
        }
    }
}
