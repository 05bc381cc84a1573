internal import CLibUV
@_spi(Bridge) import RxCore
import Synchronization

/// One TCP connection, accepted by `loop.rx.listen` or made by `loop.rx.connect`.
///
/// Read with `connection.rx.data`; write with `write(_:)`, a `Completable`
/// that completes when libuv reports the write done; half-close with
/// `shutdown()`. The connection closes when its `data` subscription ends
/// (after the writes already queued are flushed), on `close()`, or when the
/// object is released. Every method is safe from any thread; libuv calls
/// run on the loop thread.
///
/// Backpressure: when the bytes queued for writing exceed `highWatermark`,
/// reading pauses (`uv_read_stop`) until the queue drains below
/// `lowWatermark`, so an echo against a peer that never reads holds
/// bounded memory.
///
/// A connection is `Sendable`: hand it to another thread or task and write,
/// close or subscribe there; the work hops to the loop thread.
public final class TCPConnection: ReactiveCompatible, Sendable {
    /// The loop this connection belongs to.
    public let loop: Loop
    /// The local address, read when the connection was set up.
    public let localAddress: SocketAddress?
    /// The peer's address, read when the connection was set up.
    public let remoteAddress: SocketAddress?

    private let limits = Mutex((high: 64 * 1024, low: 32 * 1024))
    private let queuedBytes = Atomic<Int>(0)

    /// What only the loop thread touches.
    private struct State {
        let handle: UVTCP
        var reader: TCPReader?
        /// The last read's storage, reused by the next read once released.
        var spareReadStorage: ByteBuffer.Storage?
        var isReadingPaused = false
        var pendingWrites = 0
        var closeWhenDrained = false
    }

    private let state: LoopBound<State>

    /// The socket. Loop thread only.
    var handle: UVTCP { state.value.handle }
    private var reader: TCPReader? {
        get { state.value.reader }
        set { state.value.reader = newValue }
    }
    private var isReadingPaused: Bool {
        get { state.value.isReadingPaused }
        set { state.value.isReadingPaused = newValue }
    }
    private var pendingWrites: Int {
        get { state.value.pendingWrites }
        set { state.value.pendingWrites = newValue }
    }
    private var closeWhenDrained: Bool {
        get { state.value.closeWhenDrained }
        set { state.value.closeWhenDrained = newValue }
    }

    /// Wraps an open socket. Loop thread.
    init(handle: UVTCP) {
        self.loop = handle.loop
        self.state = LoopBound(State(handle: handle), loop: handle.loop)
        self.localAddress = handle.localAddress
        self.remoteAddress = handle.remoteAddress
        handle.onRead = { [weak self] count, bytes in
            self?.readCompleted(count, bytes)
        }
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Above this many queued write bytes, reading pauses. Default 64 KiB.
    public var highWatermark: Int {
        get { limits.withLock { $0.high } }
        set { limits.withLock { $0.high = max(newValue, 1) } }
    }

    /// Below this many queued write bytes, paused reading resumes. Default 32 KiB.
    public var lowWatermark: Int {
        get { limits.withLock { $0.low } }
        set { limits.withLock { $0.low = max(newValue, 0) } }
    }

    /// Bytes handed to `write` that libuv has not yet passed to the kernel
    /// (`uv_stream_get_write_queue_size`, as of the last write event).
    public var writeQueueSize: Int {
        queuedBytes.load(ordering: .relaxed)
    }

    /// `true` once the connection is closed or closing.
    public var isClosed: Bool {
        closedFlag.load(ordering: .acquiring)
    }

    private let closedFlag = Atomic<Bool>(false)

    /// Reads up to this size leave their storage for the next read to reuse.
    private static let spareReadLimit = 4096

    /// Writes `bytes` when subscribed; completes when libuv reports the write
    /// done, errors with the `UVError` it reports (`EPIPE`, `ECONNRESET`,
    /// `ECANCELED` if the connection closed first, `ENOTCONN` if it was
    /// closed already). The write cannot be taken back: disposing only stops
    /// the notification. Events arrive on the loop thread.
    ///
    /// Subscribed on the loop thread with nothing queued, the bytes go to the
    /// kernel at once (`uv_try_write`) and the Completable completes during
    /// `subscribe`, without a request; what the kernel does not take is
    /// queued with `uv_write`, in order behind earlier writes.
    public func write(_ bytes: ByteBuffer) -> Completable {
        Completable(raw: TCPWrite(connection: self, bytes: bytes))
    }

    /// Writes the bytes of `bytes`; see `write(_:)` for `ByteBuffer`.
    public func write(_ bytes: [UInt8]) -> Completable {
        write(ByteBuffer(bytes))
    }

    /// Writes the UTF-8 bytes of `string`; see `write(_:)` for `ByteBuffer`.
    public func write(_ string: String) -> Completable {
        write(ByteBuffer(string: string))
    }

    /// Half-closes the connection when subscribed: after the queued writes,
    /// sends FIN (`uv_shutdown`); reading continues. Completes when done.
    public func shutdown() -> Completable {
        libuvCompletable { finish in
            guard self.handle.isOpen else {
                finish(self.error(.notConnected, "uv_shutdown"))
                return
            }
            do throws(UVError) {
                _ = try ShutdownRequest(stream: self.handle) { status in
                    finish(status < 0 ? self.error(UVError.Code(rawValue: status), "uv_shutdown") : nil)
                }
            } catch {
                finish(error)
            }
        }
    }

    /// Closes the connection now (`uv_close`): pending writes fail with
    /// `ECANCELED`; a reader gets `.completed`. Safe from any thread, any
    /// number of times.
    public func close() {
        loop.onLoopThread { [self] in closeNow() }
    }

    /// Sets `TCP_NODELAY` (`uv_tcp_nodelay`): `true` (the default for
    /// connections RxUV accepts or makes) sends small writes at once instead
    /// of coalescing them (Nagle's algorithm). Completes on the loop thread;
    /// fails with `ENOTCONN` on a closed connection.
    public func setNoDelay(_ enabled: Bool) -> Completable {
        libuvCompletable { finish in
            self.finish(finish) { () throws(UVError) in try self.handle.setNoDelay(enabled) }
        }
    }

    /// Enables TCP keep-alive probes once the connection has been idle for
    /// `delay` (whole seconds, at least 1), or disables them
    /// (`uv_tcp_keepalive`). Completes on the loop thread; fails with
    /// `ENOTCONN` on a closed connection.
    public func setKeepAlive(_ enabled: Bool, delay: RxTimeInterval = .seconds(60)) -> Completable {
        let seconds = UInt32(clamping: max(1, delay.nanoseconds / 1_000_000_000))
        return libuvCompletable { finish in
            self.finish(finish) { () throws(UVError) in try self.handle.setKeepAlive(enabled, delay: seconds) }
        }
    }

    /// A Completable that, when subscribed, runs `start` on the loop thread.
    /// `start` reports once: `nil` completes, an error fails it. Disposing
    /// only stops the notification (libuv work cannot be taken back).
    private func libuvCompletable(_ start: @escaping @Sendable (_ finish: @escaping (UVError?) -> Void) -> Void) -> Completable {
        Completable.create { [self] observer in
            let notify = BooleanDisposable()
            // Called once, on the loop thread: an observer may be called
            // from any thread, one event at a time.
            let observer = UncheckedSendable(observer)
            loop.onLoopThread {
                start { error in
                    guard !notify.isDisposed else { return }
                    if let error {
                        observer.value(.error(error))
                    } else {
                        observer.value(.completed)
                    }
                }
            }
            return notify
        }
    }

    /// Reports `body`'s outcome to `finish`: `nil`, or its error.
    private func finish(_ finish: (UVError?) -> Void, _ body: () throws(UVError) -> Void) {
        do throws(UVError) {
            try body()
            finish(nil)
        } catch {
            finish(error)
        }
    }

    /// The error `code` of `operation` on this connection (its peer's address).
    private func error(_ code: UVError.Code, _ operation: String) -> UVError {
        UVError(code: code, operation: operation, address: remoteAddress?.description)
    }

    /// Aborts the connection with a TCP reset (`uv_tcp_close_reset`): the
    /// peer sees `ECONNRESET`; pending writes fail with `ECANCELED`; a reader
    /// gets `.completed`. Safe from any thread.
    public func reset() {
        loop.onLoopThread { [self] in closeNow(reset: true) }
    }

    deinit {
        state.onLoopThread { $0.handle.close() }
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    // MARK: Loop-thread internals

    /// Writes what the kernel takes of `bytes` now (`uv_try_write`), when
    /// nothing is queued before it. Loop thread only.
    func writeAtOnce(_ bytes: ByteBuffer) -> TCPWriteAttempt {
        guard handle.isOpen else {
            return .failed(writeError(.notConnected))
        }
        guard pendingWrites == 0 else { return .mustQueue(from: 0) }
        let written = handle.tryWrite(bytes.baseAddress, count: bytes.count)
        if written == bytes.count {
            return .written
        }
        if written >= 0 {
            return .mustQueue(from: written)
        }
        if written == Int(UVError.Code.wouldBlock.rawValue) {
            return .mustQueue(from: 0)
        }
        return .failed(writeError(UVError.Code(rawValue: Int32(written))))
    }

    /// Queues `bytes` from `offset` on with `uv_write`, behind the writes
    /// already queued; `completion` gets `nil` or the write's error (with
    /// its operation and the peer's address). Loop thread only.
    func queueWrite(_ bytes: ByteBuffer, from offset: Int, completion: @escaping (UVError?) -> Void) {
        guard handle.isOpen else {
            completion(writeError(.notConnected))
            return
        }
        do throws(UVError) {
            _ = try WriteRequest(stream: handle, bytes: bytes, from: offset) { [self] status in
                pendingWrites -= 1
                writeFinished()
                completion(status < 0 ? writeError(UVError.Code(rawValue: status)) : nil)
            }
            pendingWrites += 1
            updateQueue()
            if queuedBytes.load(ordering: .relaxed) > highWatermark, reader != nil, !isReadingPaused {
                isReadingPaused = true
                handle.stopReading()
            }
        } catch {
            completion(error)
        }
    }

    /// The error of a failed write.
    func writeError(_ code: UVError.Code) -> UVError {
        error(code, "uv_write")
    }

    private func writeFinished() {
        updateQueue()
        if isReadingPaused, queuedBytes.load(ordering: .relaxed) <= lowWatermark {
            isReadingPaused = false
            if reader != nil, handle.isOpen {
                do throws(UVError) {
                    try handle.startReading()
                } catch {
                    failReader(error)
                }
            }
        }
        if closeWhenDrained, pendingWrites == 0 {
            closeNow()
        }
    }

    private func updateQueue() {
        queuedBytes.store(handle.isOpen ? handle.writeQueueSize : 0, ordering: .relaxed)
    }

    /// Starts delivering reads to `reader`; one reader at a time.
    func beginReading(_ reader: TCPReader) {
        guard !reader.isDisposed else { return }
        guard self.reader == nil else {
            reader.ended(UVError(code: UVError.Code.busy, operation: "TCPConnection.data (another subscriber is reading)", address: remoteAddress?.description))
            return
        }
        guard handle.isOpen, !closeWhenDrained else {
            reader.ended(UVError(code: UVError.Code.notConnected, operation: "TCPConnection.data", address: remoteAddress?.description))
            return
        }
        self.reader = reader
        do throws(UVError) {
            try handle.startReading()
        } catch {
            failReader(error)
        }
    }

    /// Ends the read subscription of `reader`: stops reading and closes the
    /// connection once the queued writes are flushed.
    func endReading(_ reader: TCPReader) {
        guard self.reader === reader else { return }
        self.reader = nil
        closeGracefully()
    }

    private func closeGracefully() {
        guard handle.isOpen else { return }
        handle.stopReading()
        closedFlag.store(true, ordering: .releasing)
        if pendingWrites == 0 {
            closeNow()
        } else {
            closeWhenDrained = true
        }
    }

    private func closeNow(reset: Bool = false) {
        closedFlag.store(true, ordering: .releasing)
        guard handle.isOpen else { return }
        if reset {
            handle.closeWithReset()
        } else {
            handle.close()
        }
        queuedBytes.store(0, ordering: .relaxed)
        state.value.spareReadStorage = nil
        if let reader {
            self.reader = nil
            reader.ended(nil)
        }
    }

    private func failReader(_ error: UVError) {
        let reader = self.reader
        self.reader = nil
        closeNow()
        reader?.ended(error)
    }

    private func readCompleted(_ count: Int, _ bytes: UnsafeRawPointer?) {
        if count > 0, let bytes {
            guard let reader else { return }
            // In place (through LoopBound's `_modify`): a copy of the
            // reference would make the spare storage look shared, never reused.
            reader.received(ByteBuffer.copying(bytes, count: count, reusing: &state.value.spareReadStorage, keepLimit: Self.spareReadLimit))
        } else if count == Int(UVError.Code.endOfFile.rawValue) {
            handle.stopReading()
            let reader = self.reader
            self.reader = nil
            reader?.ended(nil)
            closeGracefully()
        } else if count < 0 {
            failReader(UVError(status: Int32(count), operation: "uv_read", address: remoteAddress?.description))
        }
    }
}
