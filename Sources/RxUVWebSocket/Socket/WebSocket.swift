@_spi(Bridge) import RxCore
import RxUV
import RxUVHTTP

/// One WebSocket connection (RFC 6455), either side: its messages as an
/// Observable, `send(_:)` for this side's, and the close handshake.
///
/// The socket reads from the moment it is made: pings are answered with
/// pongs, the peer's Close is answered and ends it, and a peer that breaks
/// the protocol gets the Close its error names (1002, 1007, 1009) before
/// the connection closes. Messages are delivered to `messages`; those that
/// come before it is subscribed are held (up to `unreadLimit` bytes, past
/// which the socket closes with 1008). Every event is on the loop thread;
/// the methods may be called from any thread.
///
/// A socket is made by the server's upgrade (`HTTPRouter.webSocket`) or
/// the client's (`HTTPClient.rx.webSocket`).
public final class WebSocket: Sendable {
    /// The loop the connection lives on.
    public let loop: Loop
    /// Which side this socket is.
    public let role: WebSocketRole
    /// The subprotocol the handshake chose, if any.
    public let subprotocol: String?
    /// The permessage-deflate parameters the handshake agreed (RFC 7692),
    /// `nil` when messages go uncompressed: the peer's compressed messages
    /// are inflated before `messages` sees them, and `send(_:)` compresses
    /// this side's (`WebSocketOptions.compression` says how).
    public let compression: WebSocketDeflateParameters?
    let stream: any ByteStream
    let settings: WebSocketSettings
    let encoder: WebSocketFrameEncoder
    let state: LoopBound<WebSocketState>
    /// Where the peer's bytes come from when not from `stream`'s own
    /// reading: the HTTP client's body after its 101, whose reader's room
    /// holds the reading back.
    let inboundBody: HTTPBodySource?
    let reading = SingleAssignmentDisposable()

    /// A socket on `stream` whose bytes from the peer are `incoming` (the
    /// stream's own reading, or the HTTP client's `inbound`, whose source
    /// is `inboundBody`); starts reading (events arrive on the loop thread).
    init(
        stream: any ByteStream, incoming: Observable<ByteBuffer>, inboundBody: HTTPBodySource? = nil, role: WebSocketRole, subprotocol: String?,
        compression: WebSocketDeflateParameters?, settings: WebSocketSettings
    ) {
        let options = settings.options
        self.loop = stream.loop
        self.inboundBody = inboundBody
        self.role = role
        self.subprotocol = subprotocol
        self.compression = compression
        self.stream = stream
        self.settings = settings
        self.encoder = WebSocketFrameEncoder(role: role)
        var initial = WebSocketState()
        if let compression {
            initial.deflater = WebSocketDeflater(compression, role: role, compression: options.compression ?? WebSocketCompression())
        }
        self.state = LoopBound(initial, loop: stream.loop)
        let decoder = WebSocketMessageDecoder(
            role: role, maxFrameLength: options.maxFrameLength, maxMessageLength: options.maxMessageLength,
            streamingThreshold: options.streamingThreshold, deflate: compression)
        reading.setDisposable(incoming.decodeFrames(decoder).subscribe(WebSocketEventObserver(socket: self)))
        if let interval = options.pingInterval {
            loop.enter { [self] in startKeepAlive(every: interval) }
        }
    }

    /// The options the socket was opened with.
    var options: WebSocketOptions {
        settings.options
    }

    /// The peer's messages, in order, on the loop thread: first those held
    /// since the socket opened, then each as it comes; whole, or past
    /// `options.streamingThreshold` as a `.stream` whose bytes follow as
    /// they arrive (the next message comes once its last byte has).
    /// Completes after the peer's Close (or this side's close answered);
    /// fails with the `WebSocketProtocolError` the peer's bytes broke
    /// (after this side's Close with its code), with `abnormalClosure`
    /// (1006) when the connection ended without a Close, or with the read's
    /// error. One subscriber at a time (a second fails with `EBUSY`);
    /// disposing before the end closes the socket (1001, going away).
    public var messages: Observable<WebSocketMessage> {
        WebSocketMessages(socket: self)
    }

    /// Sends `message` as one frame (masked on the client's side, compressed
    /// under permessage-deflate unless shorter than the compression's
    /// `minimumLength`), or a `.stream` as one frame per buffer it gives
    /// (uncompressed; messages sent meanwhile wait for its end; a stream
    /// that fails, or is disposed, before its end closes the socket with
    /// 1011, its message unfinishable). Completes once the stream has
    /// handed it to the kernel, so a sender that waits for each is held to
    /// the connection's pace (the stream's `writable` says when its queue
    /// is past its high watermark). Fails with
    /// `WebSocketProtocolError(goingAway)` once this side has sent its
    /// Close, and with the write's error.
    public func send(_ message: WebSocketMessage) -> Completable {
        Completable(raw: WebSocketSend(socket: self, message: message))
    }

    /// Sends `message` now and tells `observer` how it ended: the error
    /// that stops it (this side's Close sent, `goingAway`), or the write's
    /// end through the stream's one write primitive. Behind a stream being
    /// sent, it waits for the stream's end. Loop thread.
    func startSending<Observer: ObserverType>(_ message: WebSocketMessage, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        guard !state.value.sentClose, state.value.phase == .open else {
            observer.on(.error(WebSocketProtocolError(closeCode: .goingAway, reason: "the socket is closing")))
            return Disposables.create()
        }
        guard state.value.streamBeingSent == nil else {
            let writing = SingleAssignmentDisposable()
            state.value.waitingSends.append { [self] in writing.setDisposable(startSending(message, notifying: observer)) }
            return writing
        }
        let bytes: ByteBuffer
        switch message {
        case .text(var text): bytes = text.withUTF8 { framed(.text, UnsafeRawBufferPointer($0)) }
        case .binary(let payload): bytes = payload.withUnsafeBytes { framed(.binary, $0) }
        case .stream(let outgoing): return sendingStream(outgoing).asObservable().subscribe(observer)
        }
        return stream.startWrite(.one(bytes), notifying: observer)
    }

    /// A message's bytes as its one frame, in one buffer: compressed (RSV1)
    /// when permessage-deflate was agreed and the deflater takes them.
    private func framed(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) -> ByteBuffer {
        if let compressed = state.value.deflater?.compress(payload) {
            return compressed.withUnsafeBytes { encoder.encode(reservedBits: .rsv1, opcode: opcode, payload: $0) }
        }
        return encoder.encode(opcode: opcode, payload: payload)
    }

    /// `frame` encoded and written. Loop thread.
    func writing(_ frame: WebSocketFrame) -> Completable {
        guard let bytes = try? encoder.encode(frame) else {
            return .error(WebSocketProtocolError(closeCode: .internalError, reason: "the message could not be framed"))
        }
        return stream.write(bytes)
    }

    /// Begins the close handshake (§7.1.2): sends a Close with `code` and
    /// `reason` (cut to the 123 bytes of UTF-8 a Close has room for, at a
    /// character's start), then waits for the peer's
    /// Close (up to `closeTimeout`) before the connection closes. Messages
    /// that arrive meanwhile are still delivered. Does nothing once a
    /// Close was sent or the socket ended.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        loop.enter { [self] in beginClose(WebSocketClose(code: code, reason: reason)) }
    }

    /// How the socket ended, once it has (its connection closing after its
    /// writes): the peer's Close, this side's when the peer broke the
    /// protocol, or `abnormalClosure` (1006) when the connection ended (or
    /// the close timed out) without one. On the loop thread.
    public var closed: Single<WebSocketClose> {
        Single.create { [self] observer in
            let watching = SingleAssignmentDisposable()
            loop.enter { [self] in
                guard !watching.isDisposed else { return }
                guard let key = whenEnded({ observer(.success($0)) }) else { return }
                watching.setDisposable(Disposables.create { [self] in loop.enter { [self] in state.value.endWatchers.removeAll { $0.key == key } } })
            }
            return watching
        }
    }
}
