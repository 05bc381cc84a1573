import RxCore
import RxUV
import RxUVHTTP

/// A message read as it arrives, with the connection's reading held while
/// its reader has no room: what `WebSocket.messages` gives for a message
/// past `WebSocketOptions.streamingThreshold` (RFC 6455 §5.4's fragments,
/// read with backpressure), and what `send(.stream(_:))` sends frame by
/// frame.
///
/// A received stream holds what arrives before it is subscribed (up to the
/// socket's `unreadLimit` bytes, then the connection stops reading), then
/// passes each piece on as it comes; its `bytes` complete on the message's
/// last frame and fail when the connection fails inside it (the
/// `WebSocketProtocolError`, or `abnormalClosure` for a connection that
/// ended). One subscriber (a second fails with `EBUSY`); a subscriber that
/// disposes early drops the rest of the message as it arrives. A text's
/// bytes are UTF-8, checked as they come, and may end a piece inside a
/// character. Events arrive on the socket's loop thread.
public final class WebSocketMessageStream: Sendable, Hashable {
    /// The message's kind: `.text` or `.binary`.
    public let opcode: WebSocketOpcode
    // @unchecked Sendable: an Observable is immutable once made, and is
    // subscribed on the socket's loop thread only (as a request body's is).
    private enum Content: @unchecked Sendable {
        /// Where a received stream's bytes come from.
        case received(HTTPBodySource)
        /// What a stream made to be sent gives.
        case outgoing(Observable<ByteBuffer>)
    }

    private let content: Content

    /// A received stream's source.
    var source: HTTPBodySource? {
        if case .received(let source) = content { return source }
        return nil
    }

    /// A stream to send: `bytes`' buffers, each as one frame of a message of
    /// kind `opcode` (`.text`, whose bytes must be UTF-8 once joined, or
    /// `.binary`); the message ends when `bytes` completes.
    ///
    /// - Precondition: `opcode` is `.text` or `.binary`.
    public init(opcode: WebSocketOpcode, bytes: Observable<ByteBuffer>) {
        precondition(opcode == .text || opcode == .binary, "WebSocketMessageStream: a message is text or binary")
        self.opcode = opcode
        self.content = .outgoing(bytes)
    }

    init(opcode: WebSocketOpcode, source: HTTPBodySource) {
        self.opcode = opcode
        self.content = .received(source)
    }

    /// The message's bytes, in order, on the loop thread (received), or
    /// the stream given to send.
    public var bytes: Observable<ByteBuffer> {
        switch content {
        case .received(let source): HTTPBodyReading.bytes(source, owner: self)
        case .outgoing(let bytes): bytes
        }
    }

    /// The message's bytes as an `AsyncSequence`: while the consumer holds
    /// more than `highWatermark` bytes the connection stops reading, and
    /// reads again at `lowWatermark`.
    public func values(highWatermark: Int = 1 << 20, lowWatermark: Int = 1 << 19) -> ObservableValues<ByteBuffer> {
        guard let source else { return bytes.values }
        return HTTPBodyReading.values(source, owner: self, highWatermark: highWatermark, lowWatermark: lowWatermark)
    }

    /// The whole message as one buffer; fails with
    /// `WebSocketProtocolError(messageTooBig)` once it passes `maxLength`
    /// bytes (the rest is then dropped as it arrives).
    public func collect(upTo maxLength: Int) -> Single<ByteBuffer> {
        HTTPBodyReading.collect(source, owner: self, upTo: maxLength) {
            WebSocketProtocolError(closeCode: .messageTooBig, reason: "a streamed message of more than \(maxLength) bytes")
        }
    }

    deinit {
        source?.abandon()
    }

    public static func == (lhs: WebSocketMessageStream, rhs: WebSocketMessageStream) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
