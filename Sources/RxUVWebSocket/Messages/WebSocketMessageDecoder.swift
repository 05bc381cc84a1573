import RxUV

/// Cuts a WebSocket connection's bytes into events: `WebSocketFrameDecoder`
/// and `WebSocketMessageAssembler` as one `FrameDecoder`, with
/// permessage-deflate's inflating between them when the handshake agreed
/// it, so `decodeFrames` turns a stream's `rx.data` into whole messages,
/// pings, pongs and the peer's close.
///
/// Every check of the two is made, with the same `WebSocketProtocolError`s;
/// and a data frame that the message's rules or `maxMessageLength` refuse
/// is refused from its header, before its payload is kept, so at most
/// `maxFrameLength` bytes wait on a frame and `maxMessageLength` on a
/// message. A compressed message's frames count against `maxMessageLength`
/// once inflated (the inflater stops one byte past it), and each against
/// `maxFrameLength` as it comes. After the peer's Close the bytes that follow are read and
/// dropped (§5.5.1), and the stream then completes when it ends. A stream
/// that ends before a Close fails with `abnormalClosure` (1006, §7.1.5),
/// whose reason says where it ended: inside a frame, inside a fragmented
/// message, or between messages. The same events, and the same failure,
/// come out however the bytes were split into reads.
public struct WebSocketMessageDecoder: FrameDecoder {
    public typealias Frame = WebSocketEvent

    /// The frames' decoder.
    public let frameDecoder: WebSocketFrameDecoder
    /// The messages' state.
    public private(set) var assembler: WebSocketMessageAssembler
    /// permessage-deflate's receiving half, when it was agreed: a reference,
    /// copied on write (`inflateCopy`) so that copies of the decoder never
    /// share zlib's state.
    private var inflater: WebSocketInflater?

    /// A decoder of the events `role` receives: frames of at most
    /// `maxFrameLength` bytes, messages of at most `maxMessageLength`
    /// (those past `streamingThreshold` as `.fragment` events);
    /// under permessage-deflate with the agreed `deflate` parameters (RSV1
    /// then marks a compressed message; without them any reserved bit is a
    /// protocol error).
    ///
    /// - Precondition: both limits `>= 0`.
    public init(
        role: WebSocketRole, maxFrameLength: Int = WebSocketFrameDecoder.defaultMaxFrameLength,
        maxMessageLength: Int = WebSocketMessageAssembler.defaultMaxMessageLength, streamingThreshold: Int? = nil,
        deflate: WebSocketDeflateParameters? = nil
    ) {
        frameDecoder = WebSocketFrameDecoder(role: role, maxFrameLength: maxFrameLength, allowedReservedBits: deflate == nil ? [] : .rsv1)
        assembler = WebSocketMessageAssembler(maxMessageLength: maxMessageLength, streamingThreshold: streamingThreshold)
        inflater = deflate.map { WebSocketInflater($0, role: role, maxMessageLength: maxMessageLength) }
    }

    /// The next event, or `nil` while the frame that completes one is not
    /// all there (the fragments before it are read and kept); throws a
    /// `WebSocketProtocolError`.
    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> WebSocketEvent? {
        try next(&reader)
    }

    /// At the end of the stream: the last events, or `abnormalClosure` when
    /// the bytes left make no whole frame.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> WebSocketEvent? {
        if let event = try next(&reader) { return event }
        guard reader.readableBytes == 0 else { throw WebSocketFrameDecoder.truncated(reader.readableBytes) }
        return nil
    }

    /// The end of the stream, every byte read: a clean end after the peer's
    /// Close; `abnormalClosure` before it.
    public mutating func endOfInput() throws -> WebSocketEvent? {
        guard !assembler.isClosed else { return nil }
        let reason = assembler.isInsideMessage ? "the stream ended inside a fragmented message" : "the stream ended without a Close frame"
        throw WebSocketProtocolError(closeCode: .abnormalClosure, reason: reason)
    }

    private mutating func next(_ reader: inout ByteBuffer.Reader) throws(WebSocketProtocolError) -> WebSocketEvent? {
        if inflater != nil, !isKnownUniquelyReferenced(&inflater) {
            inflater = inflater?.copy()
        }
        while true {
            if assembler.isClosed {
                // What follows the peer's Close is not read (§5.5.1).
                reader.moveReaderIndex(forwardBy: reader.readableBytes)
                return nil
            }
            let assembler = self.assembler
            let inflater = self.inflater
            guard
                let frame = try frameDecoder.decode(
                    &reader,
                    admitting: { header throws(WebSocketProtocolError) in
                        try assembler.admit(header, countingLength: inflater?.compresses(header) != true)
                    })
            else {
                return nil
            }
            let plain = try inflater?.receive(frame) ?? frame
            if let event = try self.assembler.receive(plain) { return event }
        }
    }
}
