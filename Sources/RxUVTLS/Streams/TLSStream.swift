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

    private enum Phase {
        case handshaking
        case established
        case closed
    }

    /// A write (or a half-close) made before the handshake ended.
    private enum HeldWrite {
        case write(StreamWritePayload, PendingTLSWrite)
        case shutdown(Completion)
    }

    typealias Completion = @Sendable ((any Error)?) -> Void

    /// What only the loop thread touches.
    private struct State {
        /// `nil` only when it could not be made; the stream is then closed
        /// from the start, and every use of the engine is behind a phase
        /// that is not `.closed`.
        var engine: TLSEngine?
        var phase: Phase = .handshaking
        var reader: (any ByteStreamReader)?
        /// The reader's consumer has no room (`holdReading(true)`).
        var demandHeld = false
        /// Whether this stream holds the transport's reading back.
        var transportHeld = false
        /// Writes made before the handshake ended.
        var held: [HeldWrite] = []
        var handshakeWaiters: [HandshakeWaiter] = []
        var closeAfterHandshake = false
        var shutdownSent = false
        /// Why the stream closed, for a reader that comes later.
        var failure: (any Error)?
    }

    private let state: LoopBound<State>
    /// What ends the stream's life: its read subscription (a stream on its
    /// own), or its owner (a `Server`).
    private let lifetime: StreamLifetime
    private let closedFlag = Atomic<Bool>(false)
    private let heldBytes = Atomic<Int>(0)
    /// Ends this stream's reading of its transport (`endReading`, on the
    /// loop thread): disposed when the stream finishes, or when it is
    /// released (from whichever thread).
    private let transportReading = SingleAssignmentDisposable()
    /// The handshake's deadline: disposed when the handshake ends, the
    /// stream finishes, or it is released (so a stream given up during its
    /// handshake keeps no timer, and no loop, alive).
    private let handshakeTimer = SingleAssignmentDisposable()
    private let sessionCell = Mutex<TLSSession?>(nil)
    /// `false` while the plaintext held for the handshake is above the
    /// high watermark; made by the first `writability` subscriber.
    private let heldWritability = WritabilitySignal()

    init(transport: any ByteStream, context: TLSContext, role: TLSEngine.Role, serverName: String?, lifetime: StreamLifetime) {
        self.loop = transport.loop
        self.transport = transport
        self.context = context
        self.lifetime = lifetime
        var initial = State()
        do throws(TLSError) {
            initial.engine = try TLSEngine(context: context.openSSL, role: role, serverName: serverName)
        } catch {
            initial.phase = .closed
            initial.failure = error.at(transport.peerDescription)
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

    /// Starts reading the transport and the handshake, with its deadline:
    /// a client's first flight goes out now; a server has nothing to say
    /// before the client's hello, and takes its first step when it comes
    /// (a step with no input would only set up, and with released buffers
    /// free again, the record buffers the hello needs).
    private func start() {
        guard state.value.phase != .closed else {
            // No engine: nothing was sent; the transport goes.
            reportUnheard(state.value.failure)
            transport.close(.now)
            return
        }
        let timeout = context.configuration.handshakeTimeout
        if timeout > .zero {
            handshakeTimer.setDisposable(
                loop.scheduleRelative((), dueTime: RxTimeInterval(timeout)) { [weak self] _ in
                    self?.handshakeTimedOut()
                    return Disposables.create()
                })
        }
        let reader = TransportReader(self, transport: transport)
        transport.beginReading(reader)
        transportReading.setDisposable(reader)
        guard state.value.phase == .handshaking, state.value.engine?.role == .client else { return }
        advanceHandshake()
        flush()
    }

    /// The transport read `bytes`, ended (`nil`) or failed.
    fileprivate func transportEvent(_ event: Event<ByteBuffer>) {
        switch event {
        case .next(let bytes):
            guard state.value.phase != .closed, let engine = state.value.engine else { return }
            engine.feed(bytes)
            if state.value.phase == .handshaking {
                advanceHandshake()
            }
            if state.value.phase == .established {
                deliver()
            }
            flush()
        case .completed:
            transportEnded()
        case .error(let error):
            fail(error)
        }
    }

    private func advanceHandshake() {
        guard let engine = state.value.engine else { return }
        switch engine.handshake() {
        case .needsInput:
            return
        case .failed(let error):
            fail(error.at(peerDescription))
        case .done:
            state.value.phase = .established
            sessionCell.withLock { $0 = engine.session() }
            handshakeTimer.dispose()
            let waiters = state.value.handshakeWaiters
            state.value.handshakeWaiters = []
            let held = state.value.held
            state.value.held = []
            heldBytes.store(0, ordering: .relaxed)
            updateHeldWritability()
            for write in held {
                switch write {
                case .write(let payload, let pending): _ = startWrite(payload, notifying: pending)
                case .shutdown(let completion): halfClose(completion)
                }
            }
            waiters.forEach { $0.completion(nil) }
            if state.value.closeAfterHandshake {
                closeGracefully()
            }
        }
    }

    /// Hands the reader what plaintext the records fed so far hold, in
    /// batches as large as the loop's read buffer, then tells it the read's
    /// handling is over (`readComplete`): inside the transport's read, so
    /// what the reader writes meanwhile is held by the transport and goes
    /// out with the rest of that read's writes, as one transport write.
    private func deliver() {
        var told: (any ByteStreamReader)?
        defer {
            if let told, told === state.value.reader {
                told.readComplete()
            }
        }
        while state.value.phase == .established, let reader = state.value.reader, !state.value.demandHeld,
            let engine = state.value.engine
        {
            let scratch = loop.readBuffer
            var filled = 0
            var outcome = TLSEngine.ReadOutcome.needsInput
            while filled < scratch.count {
                outcome = engine.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[filled...]))
                guard case .bytes(let count) = outcome else { break }
                filled += count
            }
            if filled > 0 {
                // A large batch keeps the loop's buffer it was read into, as
                // a plain stream's large read does: no copy.
                let taken = Loop.isLargeRead(filled) ? loop.takeReadStorage(holding: scratch.baseAddress!, count: filled) : nil
                let plaintext =
                    taken
                    ?? ByteBuffer(unsafeUninitializedCapacity: filled) { memory in
                        memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[..<filled]))
                        return filled
                    }
                told = reader
                reader.received(plaintext)
            }
            switch outcome {
            case .bytes:
                continue
            case .needsInput:
                updateTransportHold()
                return
            case .closed:
                peerClosed()
                return
            case .failed(let error):
                fail(error.at(peerDescription))
                return
            }
        }
        updateTransportHold()
    }

    /// While nobody takes plaintext, the transport stops reading, so what
    /// the peer sends stays in the kernel.
    private func updateTransportHold() {
        let hold = state.value.phase == .established && (state.value.reader == nil || state.value.demandHeld)
        guard hold != state.value.transportHeld else { return }
        state.value.transportHeld = hold
        transport.holdReading(hold)
    }

    /// The stream's write primitive (`ByteStream.startWrite`), on the loop
    /// thread: before the handshake ends the plaintext is held, and goes
    /// out, in order, when it ends; after it, the bytes are encrypted at
    /// once and their records handed to the transport as one write, whose
    /// end is this write's end. Inside the transport's read handling, the
    /// transport holds the records after its first write and sends them
    /// with the rest of that read's writes. Fails with `ENOTCONN` on a
    /// closed stream, `ECANCELED` when it closes first, `EPIPE` after
    /// `shutdown()`, the `TLSError` of a failed connection, or the
    /// transport's write error. Disposing only stops the notification.
    public func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        switch state.value.phase {
        case .closed:
            observer.on(.error(closedError("TLS write")))
            return Disposables.create()
        case .handshaking:
            let pending = PendingTLSWrite(observer)
            heldBytes.add(payload.count, ordering: .relaxed)
            updateHeldWritability()
            state.value.held.append(.write(payload, pending))
            return pending
        case .established:
            guard let engine = state.value.engine else { return Disposables.create() }
            if state.value.shutdownSent {
                observer.on(.error(UVError(code: .brokenPipe, operation: "TLS write", address: peerDescription)))
                return Disposables.create()
            }
            if let error = encrypt(payload, with: engine) {
                observer.on(.error(error))
                fail(error)
                return Disposables.create()
            }
            guard let ciphertext = engine.takeOutput() else {
                observer.on(.completed)
                return Disposables.create()
            }
            return transport.startWrite(.one(ciphertext), notifying: observer)
        }
    }

    /// Encrypts every buffer of `payload`; the error of the first that fails.
    private func encrypt(_ payload: StreamWritePayload, with engine: TLSEngine) -> TLSError? {
        switch payload {
        case .one(let buffer):
            return engine.write(buffer)?.at(peerDescription)
        case .many(let buffers):
            for buffer in buffers {
                if let error = engine.write(buffer) { return error.at(peerDescription) }
            }
            return nil
        }
    }

    /// Sends `close_notify` after what is queued, then half-closes the
    /// transport (held until the handshake ends). Loop thread.
    private func halfClose(_ completion: @escaping Completion) {
        switch state.value.phase {
        case .closed:
            completion(closedError("TLS shutdown"))
        case .handshaking:
            state.value.held.append(.shutdown(completion))
        case .established:
            if !state.value.shutdownSent {
                state.value.shutdownSent = true
                state.value.engine?.shutdown()
            }
            flush()
            _ = transport.shutdown().subscribe(
                onCompleted: { completion(nil) },
                onError: { completion($0) })
        }
    }

    /// Hands the transport what OpenSSL wrote for the peer on its own (a
    /// handshake flight, an alert, `close_notify`), as one write nobody
    /// waits for: its failure ends the stream through its read side.
    private func flush() {
        guard let ciphertext = state.value.engine?.takeOutput() else { return }
        _ = transport.startWrite(.one(ciphertext), notifying: UnwatchedTransportWrite())
    }

    private func awaitHandshake(_ waiter: HandshakeWaiter) {
        switch state.value.phase {
        case .handshaking: state.value.handshakeWaiters.append(waiter)
        case .established: waiter.completion(nil)
        case .closed: waiter.completion(sessionCell.withLock { $0 } != nil ? nil : closedError("TLS handshake"))
        }
    }

    private func dropWaiter(_ waiter: HandshakeWaiter) {
        state.value.handshakeWaiters.removeAll { $0 === waiter }
    }

    /// Makes `reader` the stream's one reader: it hears the plaintext once
    /// the handshake is done, the end of each batch's handling, and the end
    /// of reading (`close_notify`, or the failure). A second reader ends at
    /// once with `EBUSY`; one on a closed stream with its failure or
    /// `ENOTCONN`. Loop thread.
    public func beginReading(_ reader: any ByteStreamReader) {
        guard state.value.reader == nil else {
            reader.ended(UVError(code: .busy, operation: "TLSStream.data (another subscriber is reading)", address: peerDescription))
            return
        }
        guard state.value.phase != .closed else {
            reader.ended(state.value.failure ?? UVError(code: .notConnected, operation: "TLSStream.data", address: peerDescription))
            return
        }
        state.value.reader = reader
        deliver()
        flush()
    }

    /// Stops telling `reader`, if it is the stream's reader: the transport
    /// stops reading, and a stream on its own closes after its writes
    /// (with `close_notify`). Loop thread.
    public func endReading(_ reader: any ByteStreamReader) {
        guard state.value.reader === reader else { return }
        state.value.reader = nil
        state.value.demandHeld = false
        if lifetime == .readSubscription {
            closeGracefully()
        } else {
            updateTransportHold()
        }
    }

    /// The peer sent `close_notify`: the reader completes; a stream on its
    /// own closes (after its writes).
    private func peerClosed() {
        let reader = state.value.reader
        state.value.reader = nil
        reader?.ended(nil)
        if lifetime == .readSubscription {
            closeGracefully()
        }
    }

    /// The transport's reading ended: closed here (quietly), or the peer's
    /// end of input, which without `close_notify` is an unclean shutdown.
    private func transportEnded() {
        guard state.value.phase != .closed, let engine = state.value.engine else { return }
        if transport.isClosed {
            // Closed under us (a server's reset at a drain's deadline).
            finish(closeNotify: false, transport: .now)
            return
        }
        if state.value.phase == .handshaking {
            fail(TLSError(code: .uncleanShutdown, reason: "the peer closed the connection during the handshake", operation: "TLS handshake", address: peerDescription))
            return
        }
        engine.endOfInput()
        // What is left is read out, then OpenSSL says how it ended. With no
        // reader, the end waits for one.
        state.value.demandHeld = false
        deliver()
    }

    private func handshakeTimedOut() {
        guard state.value.phase == .handshaking else { return }
        let timeout = context.configuration.handshakeTimeout
        fail(TLSError(code: .handshakeTimeout, reason: "no handshake within \(timeout)", operation: "TLS handshake", address: peerDescription), transport: .reset)
    }

    /// Flushes the writes, sends `close_notify`, closes the transport after
    /// them. Before the handshake ends with writes held, waits for it.
    private func closeGracefully() {
        switch state.value.phase {
        case .closed:
            return
        case .handshaking where !state.value.held.isEmpty:
            state.value.closeAfterHandshake = true
        case .handshaking:
            finish(closeNotify: false, transport: .afterWrites)
        case .established:
            finish(closeNotify: true, transport: .afterWrites)
        }
    }

    /// Closes now: `close_notify` goes out when nothing waits ahead of it.
    private func closeNow() {
        let idle = state.value.phase == .established && transport.writeQueueSize == 0
        finish(closeNotify: idle, transport: idle ? .afterWrites : .now)
    }

    /// The connection failed: everyone waiting hears `error` (or, with no
    /// one, it is reported), the alert OpenSSL wrote goes out, and the
    /// transport closes.
    private func fail(_ error: any Error, transport mode: StreamCloseMode = .afterWrites) {
        guard state.value.phase != .closed else { return }
        let heard = state.value.reader != nil || !state.value.handshakeWaiters.isEmpty || !state.value.held.isEmpty
        state.value.failure = error
        finish(closeNotify: false, transport: mode, error: error)
        if !heard {
            reportUnheard(error)
        }
    }

    /// The one way the stream ends: the engine's last output goes out, every
    /// waiter hears `error` (or `ECANCELED`), the reader ends, the transport
    /// closes as `mode` says and is no longer read.
    private func finish(closeNotify: Bool, transport mode: StreamCloseMode, error: (any Error)? = nil) {
        guard state.value.phase != .closed else { return }
        let wasEstablished = state.value.phase == .established
        state.value.phase = .closed
        closedFlag.store(true, ordering: .releasing)
        if closeNotify, wasEstablished, !state.value.shutdownSent {
            state.value.shutdownSent = true
            state.value.engine?.shutdown()
        }
        if mode != .reset {
            flush()
        }
        handshakeTimer.dispose()
        let cancelled = error ?? UVError(code: .cancelled, operation: "TLS write", address: peerDescription)
        let held = state.value.held
        state.value.held = []
        heldBytes.store(0, ordering: .relaxed)
        for write in held {
            switch write {
            case .write(_, let pending): pending.on(.error(cancelled))
            case .shutdown(let completion): completion(cancelled)
            }
        }
        let waiters = state.value.handshakeWaiters
        state.value.handshakeWaiters = []
        waiters.forEach { $0.completion(error ?? UVError(code: .cancelled, operation: "TLS handshake", address: peerDescription)) }
        let reader = state.value.reader
        state.value.reader = nil
        reader?.ended(error)
        heldWritability.complete()
        transport.close(mode)
        transportReading.dispose()
    }

    private func closedError(_ operation: String) -> any Error {
        state.value.failure ?? UVError(code: .notConnected, operation: operation, address: peerDescription)
    }

    private func reportUnheard(_ error: (any Error)?) {
        guard let error else { return }
        report(error, ReportContext(loop: loop, peer: peerDescription, handle: "tls"))
    }

    // MARK: Writability of the held plaintext

    private func updateHeldWritability() {
        let bytes = heldBytes.load(ordering: .relaxed)
        if bytes > highWatermark {
            heldWritability.send(false)
        } else if bytes <= lowWatermark {
            heldWritability.send(true)
        }
    }
}

/// One subscriber of `handshake`, waiting for it to end.
final class HandshakeWaiter: Sendable {
    let completion: TLSStream.Completion

    init(_ completion: @escaping TLSStream.Completion) {
        self.completion = completion
    }
}

/// The TLS stream's reader of its transport: not retained by it, so a
/// stream nobody holds goes away (and stops reading its transport).
/// Disposing it (from any thread) ends its reading of the transport.
// @unchecked Sendable: `stream` is read on the loop thread only (the
// transport calls its reader there); `transport` is immutable.
private final class TransportReader: ByteStreamReader, Disposable, @unchecked Sendable {
    private weak var stream: TLSStream?
    private let transport: any ByteStream

    init(_ stream: TLSStream, transport: any ByteStream) {
        self.stream = stream
        self.transport = transport
    }

    func received(_ bytes: ByteBuffer) {
        stream?.transportEvent(.next(bytes))
    }

    func ended(_ error: (any Error)?) {
        stream?.transportEvent(error.map { .error($0) } ?? .completed)
    }

    /// Ends the reading of the transport, on the loop thread (at once
    /// there): the transport lets go of this reader.
    func dispose() {
        let transport = self.transport
        transport.loop.enter { [self] in transport.endReading(self) }
    }
}
