import RxUV

/// Cuts a WebSocket connection's bytes into frames (RFC 6455 §5.2), for one
/// side of the connection: a `FrameDecoder`, so `decodeFrames` runs it on a
/// stream's `rx.data`.
///
/// Each frame comes whole, its payload unmasked: a slice of the read when it
/// is not masked (what a client receives) and lies in one read; a new buffer,
/// unmasked as it is copied, when it is masked (what a server receives).
/// The same frames come out however the bytes were split into reads.
///
/// Strict, with the checks of RFC 6455 §5, each a `WebSocketProtocolError`
/// with the close code to send: a reserved opcode (0x3–0x7, 0xB–0xF), a
/// reserved bit not in `allowedReservedBits`, a control frame without FIN or
/// with more than 125 bytes, an unmasked frame at a server or a masked one
/// at a client, a length not in its shortest form (§5.2: "the minimal number
/// of bytes MUST be used"; RxUV refuses a longer form, as wsproto does), and
/// a 64-bit length with its top bit set are `protocolError` (1002); a frame
/// longer than `maxFrameLength` is `messageTooBig` (1009), refused from its
/// header, before any of its payload is kept. A stream that ends inside a
/// frame fails with `abnormalClosure` (1006); one that ends between frames
/// completes. The decoder keeps no state between frames: how frames make
/// messages is `WebSocketMessageAssembler`'s concern.
public struct WebSocketFrameDecoder: FrameDecoder {
    public typealias Frame = WebSocketFrame

    /// The longest frame payload accepted by default: 1 MiB.
    public static let defaultMaxFrameLength = 1 << 20

    /// The side that receives the frames.
    public let role: WebSocketRole
    /// The longest payload accepted, in bytes.
    public let maxFrameLength: Int
    /// The reserved bits an extension negotiated on the connection gave a
    /// meaning (`.rsv1` under permessage-deflate); other reserved bits are
    /// refused. The decoder passes them on in `WebSocketFrame.reservedBits`
    /// and leaves their meaning to the extension.
    public let allowedReservedBits: WebSocketReservedBits

    /// A decoder of the frames `role` receives, of at most `maxFrameLength`
    /// bytes of payload each, with `allowedReservedBits` (none by default).
    ///
    /// - Precondition: `maxFrameLength >= 0`.
    public init(role: WebSocketRole, maxFrameLength: Int = WebSocketFrameDecoder.defaultMaxFrameLength, allowedReservedBits: WebSocketReservedBits = []) {
        precondition(maxFrameLength >= 0, "WebSocketFrameDecoder: maxFrameLength must not be negative")
        self.role = role
        self.maxFrameLength = maxFrameLength
        self.allowedReservedBits = allowedReservedBits
    }

    /// The next frame, or `nil` while its header or payload is not all
    /// there; throws a `WebSocketProtocolError` on a header the protocol
    /// forbids or a frame over the limit.
    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> WebSocketFrame? {
        try decode(&reader, admitting: { _ in })
    }

    /// At the end of the stream: the last frame, or `abnormalClosure` when
    /// the bytes left make no whole frame.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> WebSocketFrame? {
        if let frame = try decode(&reader) { return frame }
        guard reader.readableBytes == 0 else { throw Self.truncated(reader.readableBytes) }
        return nil
    }

    /// The error of a stream that ended inside a frame, `bytesLeft` bytes
    /// into it.
    static func truncated(_ bytesLeft: Int) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: .abnormalClosure, reason: "the stream ended inside a frame (\(bytesLeft) bytes of it)")
    }

    /// `decode(_:)`, with `admit` called on each header once it is read and
    /// checked, before the decoder waits on the payload (and each time it
    /// looks again): what lets a message's checks refuse a frame before its
    /// payload is kept. `admit` throws to refuse.
    func decode(
        _ reader: inout ByteBuffer.Reader, admitting admit: (WebSocketFrameHeader) throws(WebSocketProtocolError) -> Void
    ) throws(WebSocketProtocolError) -> WebSocketFrame? {
        guard let header = try WebSocketFrameHeader.parse(reader, role: role, allowedReservedBits: allowedReservedBits, maxFrameLength: maxFrameLength)
        else { return nil }
        try admit(header)
        guard reader.readableBytes - header.length >= header.payloadLength else { return nil }
        reader.moveReaderIndex(forwardBy: header.length)
        let payload: ByteBuffer
        if let key = header.maskingKey {
            payload = WebSocketMasking.masked(reader.buffer, at: reader.readerIndex, count: header.payloadLength, with: key)
            reader.moveReaderIndex(forwardBy: header.payloadLength)
        } else {
            // Checked just above: the payload is all there.
            payload = reader.readBytes(header.payloadLength) ?? ByteBuffer()
        }
        return WebSocketFrame(fin: header.fin, reservedBits: header.reservedBits, opcode: header.opcode, payload: payload)
    }
}
