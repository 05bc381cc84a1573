@_spi(Bridge) import RxCore
import RxUV
import Synchronization

/// TLS over another stream: a `ByteStream` whose bytes are the plaintext of
/// a TLS connection carried by `transport` (a TCP connection, a Unix-domain
/// connection, any stream). It has the face of a plain connection, so
/// `rx.data`, `write`, `rx.writable`, framing, `inbound`/`outbound` and
/// `Server` work on it unchanged.
///
/// Made by `loop.rx.connect(host:port:tls:)` (a client, once its handshake
/// is done), by `serve(…, tls:)` and `listen(…, tls:)` (a server, while its
/// handshake runs), or over any stream with `TLSStream.client(over:…)` /
/// `server(over:…)`.
///
/// - The handshake starts at once. Writes made before it ends are held and
///   go out, in order, when it ends; a read subscription gets plaintext
///   once it ends. `handshake` completes then (or fails with the
///   `TLSError`), and `session` says what was agreed on. A handshake not
///   done within `TLSConfiguration.handshakeTimeout` fails with
///   `.handshakeTimeout` and the connection closes.
/// - `rx.data` completes when the peer sends `close_notify`; it fails with
///   `TLSError.Code.uncleanShutdown` when the transport ends without one
///   (the data may be truncated), with the `TLSError` of a bad record or an
///   alert, or with the transport's `UVError` (`ECONNRESET`).
/// - `shutdown()` sends `close_notify`, then half-closes the transport;
///   reading continues. `close(.afterWrites)` flushes the writes, sends
///   `close_notify` and closes the transport after it; `.now` cancels what
///   waits for the handshake and closes (with `close_notify` when nothing
///   is queued); `.reset` resets the transport.
/// - Backpressure: `highWatermark` and `lowWatermark` are the transport's;
///   the queue counts the plaintext held for the handshake plus the
///   transport's queue. While the stream's reader holds reading back (or
///   nobody reads), the transport stops reading, so unread plaintext stays
///   in the kernel, not in memory.
///
/// Events arrive on the transport's loop thread. Every method is safe from
/// any thread.
// @unchecked Sendable: the TLS state (`state`, and `engine` inside it) is
// the loop thread's (`LoopBound`); the rest is immutable, atomic or locked.
public final class TLSStream: ByteStream, LoopConfined, @unchecked Sendable {
    /// The loop the stream's events arrive on: the transport's.
    public let loop: Loop
    /// The stream that carries the ciphertext.
    public let transport: any ByteStream
    /// The context the connection was made from.
    public let context: TLSContext

    typealias Completion = @Sendable ((any Error)?) -> Void

    /// What only the loop thread touches.
    struct State {
        /// `nil` only when it could not be made; the stream is then closed
        /// from the start, and every use of the engine is behind a phase
        /// that is not `.closed`.
        var engine: TLSEngine?
        var phase: TLSStreamPhase = .handshaking(TLSHandshakeWait())
        var reader: (any ByteStreamReader)?
        /// The reader's consumer has no room (`holdReading(true)`).
        var demandHeld = false
        /// Whether this stream holds the transport's reading back.
        var transportHeld = false
    }

    let state: LoopBound<State>
    /// What ends the stream's life: its read subscription (a stream on its
    /// own), or its owner (a `Server`).
    let lifetime: StreamLifetime
    let closedFlag = Atomic<Bool>(false)
    let heldBytes = Atomic<Int>(0)
    /// Ends this stream's reading of its transport (`endReading`, on the
    /// loop thread): disposed when the stream finishes, or when it is
    /// released (from whichever thread).
    let transportReading = SingleAssignmentDisposable()
    /// The handshake's deadline: disposed when the handshake ends, the
    /// stream finishes, or it is released (so a stream given up during its
    /// handshake keeps no timer, and no loop, alive).
    let handshakeTimer = SingleAssignmentDisposable()
    let sessionCell = Mutex<TLSSession?>(nil)
    /// `false` while the plaintext held for the handshake is above the
    /// high watermark; made by the first `writability` subscriber.
    let heldWritability = WritabilitySignal()

    init(transport: any ByteStream, context: TLSContext, role: TLSEngine.Role, serverName: String?, lifetime: StreamLifetime) {
        self.loop = transport.loop
        self.transport = transport
        self.context = context
        self.lifetime = lifetime
        var initial = State()
        do throws(TLSError) {
            initial.engine = try TLSEngine(context: context.openSSL, role: role, serverName: serverName)
        } catch {
            initial.phase = .closed(failure: error.at(transport.peerDescription))
            closedFlag.store(true, ordering: .releasing)
        }
        state = LoopBound(initial, loop: transport.loop)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
        loop.enter { [self] in start() }
    }

    deinit {
        // Released with its transport still read: stop reading it (a
        // stream on its own then closes).
        transportReading.dispose()
        handshakeTimer.dispose()
        heldWritability.complete()
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    /// A client over `transport`: sends `serverName` (SNI) and, with
    /// verification on, checks the server's certificate against it. The
    /// stream closes when its read subscription ends.
    public static func client(over transport: any ByteStream, context: TLSContext, serverName: String?) -> TLSStream {
        TLSStream(transport: transport, context: context, role: .client, serverName: serverName, lifetime: .readSubscription)
    }

    /// A server over `transport` (an accepted connection). The stream
    /// closes when its read subscription ends.
    public static func server(over transport: any ByteStream, context: TLSContext) -> TLSStream {
        TLSStream(transport: transport, context: context, role: .server, serverName: nil, lifetime: .readSubscription)
    }

    // MARK: The face

    /// What the handshake agreed on; `nil` until it is done.
    public var session: TLSSession? {
        sessionCell.withLock { $0 }
    }

    /// Completes when the handshake is done (at once if it is), on the
    /// loop thread; fails with its `TLSError`, the transport's `UVError`, or
    /// `ECANCELED` if the stream closed first. Any number of subscribers;
    /// disposing only stops the notification.
    public var handshake: Completable {
        Completable.create { [self, loop] observer in
            let waiter = HandshakeWaiter { error in
                if let error { observer(.error(error)) } else { observer(.completed) }
            }
            if !loop.enter({ [self] in awaitHandshake(waiter) }) {
                observer(.error(UVError(code: .notConnected, operation: "TLS handshake", address: peerDescription)))
            }
            // Disposed, the waiter goes: it holds the subscriber, which may
            // hold this stream, so keeping it would keep the stream (and its
            // connection) until the handshake ended.
            return Disposables.create { [weak self] in
                guard let stream = self else { return }
                loop.enter { [weak stream] in stream?.dropWaiter(waiter) }
            }
        }
    }

    /// The stream's writability (`rx.writable`): the transport's, and
    /// `false` while more than `highWatermark` bytes of plaintext wait for
    /// the handshake.
    public var writability: Observable<Bool> {
        Observable.combineLatest(
            transport.writability,
            heldWritability.subject(current: heldBytes.load(ordering: .relaxed) <= highWatermark, closed: isClosed)
        ) { $0 && $1 }
        .distinctUntilChanged()
    }

    /// Holds reading back for the reader's consumer (`true`) or lets it go
    /// (`false`): the transport stops reading while held.
    public func holdReading(_ held: Bool) {
        loop.enter(self, .holdReading(held))
    }

    /// Sends `close_notify` after the queued writes, then half-closes the
    /// transport (`shutdown()` on it): the peer reads to its end; reading
    /// continues here. Completes when the transport's half-close is done.
    public func shutdown() -> Completable {
        Completable.create { [self] observer in
            let completion: Completion = { error in
                if let error { observer(.error(error)) } else { observer(.completed) }
            }
            if !loop.enter({ [self] in halfClose(completion) }) {
                completion(UVError(code: .notConnected, operation: "TLS shutdown", address: peerDescription))
            }
            return Disposables.create()
        }
    }

    /// Closes the stream as `mode` says (see the type's documentation). Safe
    /// from any thread, any number of times.
    public func close(_ mode: StreamCloseMode) {
        loop.enter(self, .closeStream(mode))
    }

    /// The transport's high watermark.
    public var highWatermark: Int {
        get { transport.highWatermark }
        set { transport.highWatermark = newValue }
    }

    /// The transport's low watermark.
    public var lowWatermark: Int {
        get { transport.lowWatermark }
        set { transport.lowWatermark = newValue }
    }

    /// Plaintext held for the handshake plus the transport's queue, in bytes.
    public var writeQueueSize: Int {
        heldBytes.load(ordering: .relaxed) + transport.writeQueueSize
    }

    /// `false` while the queue is above the high watermark.
    public var isWritable: Bool {
        transport.isWritable && heldBytes.load(ordering: .relaxed) <= highWatermark
    }

    /// `true` once the stream is closed or closing.
    public var isClosed: Bool {
        closedFlag.load(ordering: .acquiring)
    }

    /// The transport's peer.
    public var peerDescription: String? {
        transport.peerDescription
    }

    // MARK: Loop thread

    /// `.closeStream` and `.holdReading`, the stream steps. Loop thread.
    package func runOnLoopThread(_ step: StreamStep) {
        switch step {
        case .closeStream(.afterWrites): closeGracefully()
        case .closeStream(.now): closeNow()
        case .closeStream(.reset): finish(closeNotify: false, transport: .reset)
        case .holdReading(let held):
            state.value.demandHeld = held
            if !held {
                deliver()
                flush()
            }
            updateTransportHold()
        }
    }
}
