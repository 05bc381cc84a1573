internal import CLibUV
@_spi(Bridge) import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connected byte stream over a libuv `uv_stream_t`: what TCP
/// connections, Unix-domain socket connections, TTYs and a child process's
/// pipes share. The libuv implementation of the `ByteStream` face.
///
/// Read with `rx.data`; write with `write(_:)`, a `Completable` that
/// completes when libuv reports the write done (several buffers go out in
/// one `uv_write` with `write(_:)` of an array); half-close with
/// `shutdown()`. The stream closes when its `data` subscription ends (after
/// the writes already queued are flushed), on `close()`, or when the object
/// is released. Every method is safe from any thread; libuv calls run on
/// the loop thread.
///
/// Backpressure: when the bytes queued for writing exceed `highWatermark`,
/// the stream turns unwritable (`rx.writable` emits `false`) and reading
/// pauses (`uv_read_stop`); when the queue drains to `lowWatermark` it turns
/// writable again (`true`) and reading resumes. An echo against a peer that
/// never reads holds bounded memory.
///
/// A stream is `Sendable`: hand it to another thread or task and write,
/// close or subscribe there; the work hops to the loop thread.
// @unchecked Sendable (a class open to the bridge's subclasses cannot be
// checked): the loop-thread state is in `state` (`LoopBound`), the rest is
// immutable, atomic or under a lock; subclasses add only immutable fields.
public class StreamConnection: ByteStream, UVStreamTarget, @unchecked Sendable {
    /// The loop this stream belongs to.
    public final let loop: Loop

    // Atomics, not a lock: each queued or held write reads the high one.
    private let high = Atomic<Int>(64 * 1024)
    private let low = Atomic<Int>(32 * 1024)
    private let queuedBytes = Atomic<Int>(0)
    private let closedFlag = Atomic<Bool>(false)
    private let writableFlag = Atomic<Bool>(true)
    /// `rx.writable`'s subject, made by its first subscriber.
    private let writabilitySignal = WritabilitySignal()

    /// What only the loop thread touches.
    struct State {
        var reader: (any ByteStreamReader)?
        /// The last small read's storage, reused by the next read once
        /// released.
        var spareReadStorage = ByteBuffer.SpareStorage(keepLimit: StreamConnection.spareReadLimit)
        /// Why reading is held back, beside having no reader.
        var readGate = ReadGate()
        /// The write queue: held writes, requests in flight.
        var writes = StreamWriteQueue()
        /// The loop's clock (`uv_now`, ms) at the last read or finished
        /// write: what a `Server`'s idle timeout looks at.
        var lastActivity: UInt64
        /// Called once when the stream closes (`closeNow`): how the owner of
        /// a `.owner` stream (a `Server`) hears of it.
        var onClosed: (() -> Void)?
        /// Where the bytes read and written are counted: a `Server`'s
        /// metrics for the loop.
        var traffic: ServerMetrics?
        /// A graceful close lingers: the stream is half-closed and what
        /// still arrives is read and dropped (`closeAfterWrites`).
        var lingering: LingeringClose?
    }

    let state: LoopBound<State>
    /// What ends the stream's life, decided by whoever made it.
    private let lifetime: StreamLifetime

    /// The stream handle, which this connection owns: the reference may be
    /// read anywhere, the handle used on the loop thread only. It closes
    /// when the connection is released, from whichever thread.
    private let owned: Owned<UVStream>
    /// The stream handle.
    final var handle: UVStream {
        owned.resource
    }
    var reader: (any ByteStreamReader)? {
        get { state.value.reader }
        set { state.value.reader = newValue }
    }

    /// Wraps an open stream, whose life `lifetime` decides. Loop thread.
    init(handle: UVStream, lifetime: StreamLifetime = .readSubscription) {
        self.loop = handle.loop
        self.lifetime = lifetime
        self.owned = Owned(handle)
        self.state = LoopBound(State(lastActivity: handle.loop.clockMilliseconds), loop: handle.loop)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Above this many queued write bytes the stream turns unwritable and
    /// reading pauses. Default 64 KiB.
    public final var highWatermark: Int {
        get { high.load(ordering: .relaxed) }
        set { high.store(max(newValue, 1), ordering: .relaxed) }
    }

    /// At or below this many queued write bytes an unwritable stream turns
    /// writable again and paused reading resumes. Default 32 KiB.
    public final var lowWatermark: Int {
        get { low.load(ordering: .relaxed) }
        set { low.store(max(newValue, 0), ordering: .relaxed) }
    }

    /// Bytes handed to `write` that libuv has not yet passed to the kernel
    /// (`uv_stream_get_write_queue_size`, as of the last write event).
    public final var writeQueueSize: Int {
        queuedBytes.load(ordering: .relaxed)
    }

    /// `false` while more than `highWatermark` bytes wait to be written
    /// (until the queue drains to `lowWatermark`); `rx.writable` emits each
    /// change.
    public final var isWritable: Bool {
        writableFlag.load(ordering: .acquiring)
    }

    /// `true` once the stream is closed or closing.
    public final var isClosed: Bool {
        closedFlag.load(ordering: .acquiring)
    }

    /// The loop's clock at the last read or finished write. Loop thread.
    final var lastActivity: UInt64 {
        state.value.lastActivity
    }

    /// The peer, for messages: a TCP connection's remote address, a
    /// Unix-domain connection's socket path; `nil` for a terminal or a pipe.
    public var peerDescription: String? {
        nil
    }

    /// Counts the bytes read from and written to this stream in `metrics`
    /// (a `Server`'s, for the loop), from now on. Loop thread.
    final func countTraffic(in metrics: ServerMetrics?) {
        state.value.traffic = metrics
    }

    /// Calls `body` once when the stream has closed, however it closes: what
    /// the owner of a `.owner` stream (a `Server`) uses. Loop thread.
    final func whenClosed(_ body: @escaping () -> Void) {
        state.value.onClosed = body
    }

    /// Reads up to this size leave their storage for the next read to reuse.
    fileprivate static let spareReadLimit = 4096

    /// The stream's write primitive (`ByteStream.startWrite`), on the loop
    /// thread: with nothing queued, the bytes go to the kernel at once
    /// (`uv_try_write`) and `observer` is told before this returns; what
    /// the kernel does not take is queued with `uv_write`, in order behind
    /// earlier writes, and told when libuv reports it done. While the
    /// stream's reader handles a read, only the first write goes out at
    /// once: the ones after it are held and go out together, in one write
    /// call, when the handling ends (after the reader's `readComplete`),
    /// and are told then; a `shutdown()` or `close(.afterWrites)` made
    /// meanwhile goes after them. Errors: the `UVError` libuv reports
    /// (`EPIPE`, `ECONNRESET`), `ECANCELED` if the stream closes first,
    /// `ENOTCONN` if it was closed already, with the operation and the
    /// peer's address. Disposing the result only stops the notification.
    public final func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        if holdsNextWrite() {
            return hold(payload, for: observer)
        }
        switch writeAtOnce(payload) {
        case .written:
            observer.onCompleted()
            return Disposables.create()
        case .failed(let error):
            observer.on(.error(error))
            return Disposables.create()
        case .mustQueue(let offset):
            let notification = WriteNotification()
            queueWrite(payload, from: offset) { error in
                guard !notification.isCancelled else { return }
                if let error {
                    observer.on(.error(error))
                } else {
                    observer.onCompleted()
                }
            }
            return notification
        }
    }

    /// Sends the bytes `range` of `file`, in order behind the writes made
    /// before, on the loop thread: while nothing is queued or held before
    /// it, `sendfile(2)` hands the kernel what the socket takes now,
    /// straight from the page cache, with no copy in this process (up to
    /// 64 KiB an offer); what the socket cannot take at once is read a
    /// chunk at a time (`pread`, up to 64 KiB) and written with `write`,
    /// after which `sendfile` is offered the rest again. A slow peer holds
    /// at most one chunk in memory. Completes after the last byte; fails
    /// with `UVError.Code.endOfFile` when the file ends before the range
    /// does, or with the `sendfile`, read or write error (`EPIPE`,
    /// `ECONNRESET`, `ENOTCONN` on a closed stream). Disposing stops after
    /// the chunk in flight, untold. The file is read on the loop thread, as
    /// nginx reads without `aio`: `write(fileAt:range:)` reads on libuv's
    /// thread pool instead, for files that may not be in the page cache.
    public final func write(_ file: OpenFile, range: Range<Int64>) -> Completable {
        FileSend.completable(stream: self, file: file, range: range) { [self] file, offset, count throws(UVError) -> FileSend.DirectSend in
            guard handle.isOpen else { throw writeError(.notConnected) }
            // Only with nothing before it: no write queued, none held for
            // the end of a read's handling (then it goes, as a write that
            // the kernel takes at once, before any made after it).
            guard state.value.writes.isDrained, state.value.writes.held.writes.isEmpty, let socket = handle.descriptor else { return .notNow }
            var position = off_t(offset)
            do throws(UVError) {
                let sent = Int(try systemCall("sendfile", address: peerDescription) { Int32(truncatingIfNeeded: sendfile(socket, file.descriptor, &position, count)) })
                if sent > 0 {
                    state.value.traffic?.wrote(sent)
                    state.value.lastActivity = loop.clockMilliseconds
                }
                return .sent(sent)
            } catch  where error.code == .wouldBlock {
                return .notNow
            } catch  where error.code == .invalidArgument {
                return .unsupported
            }
        }
    }

    /// The bytes the peer sends (`rx.data`): `uv_read_start` when
    /// subscribed, one `ByteBuffer` per read.
    public final var receivedData: Observable<ByteBuffer> {
        StreamRead(stream: self)
    }

    /// The stream's writability (`rx.writable`).
    public final var writability: Observable<Bool> {
        writabilitySubject().distinctUntilChanged()
    }

    /// Holds reading back for the reader's consumer (`true`) or lets it go
    /// (`false`): the demand reason of the read gate; reading runs when no
    /// reason holds it (`uv_read_stop`, `uv_read_start`). Safe from any
    /// thread; at once on the loop thread.
    public final func holdReading(_ held: Bool) {
        loop.enter(self, .holdReading(held))
    }

    /// Half-closes the stream when subscribed: after the queued writes,
    /// sends end-of-stream (`uv_shutdown`: a TCP FIN); reading continues.
    /// Completes on the loop thread when done; fails with `ENOTCONN` on a
    /// closed stream.
    public final func shutdown() -> Completable {
        operation("uv_shutdown") { (stream, finish) throws(UVError) in
            // Writes held for this read go before the end of stream.
            stream.flushCoalesced()
            guard stream.handle.isOpen else {
                throw stream.error(.notConnected, "uv_shutdown")
            }
            _ = try ShutdownRequest(stream: stream.handle, peer: stream.peerDescription) { status in
                finish(status < 0 ? stream.error(UVError.Code(rawValue: status), "uv_shutdown") : nil)
            }
        }
    }

    /// Closes the stream as `mode` says: once the queued writes are flushed
    /// (`.afterWrites`), now (`uv_close`: pending writes fail with
    /// `ECANCELED`, a reader gets `.completed`, `rx.writable` completes), or
    /// with a reset (`.reset`, `uv_tcp_close_reset` on TCP). Safe from any
    /// thread, any number of times.
    public final func close(_ mode: StreamCloseMode) {
        loop.enter(self, .closeStream(mode))
    }

    /// A Completable that, when subscribed, runs `body` on the loop thread
    /// with this stream and a `finish` to call once: `nil` completes, an
    /// error fails; a thrown error fails at once (`LoopOperation`).
    final func operation(_ operation: StaticString, _ body: @escaping LoopOperation<StreamConnection>.Body) -> Completable {
        Completable(raw: LoopOperation(loop: loop, target: self, operation: operation, body: body))
    }

    /// The error `code` of `operation` on this stream (with its peer).
    final func error(_ code: UVError.Code, _ operation: String) -> UVError {
        UVError(code: code, operation: operation, address: peerDescription)
    }

    deinit {
        // The handle closes as `owned` goes, right after this.
        writabilitySignal.complete()
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    // MARK: Writability

    /// The subject behind `rx.writable`: made on first use with the current
    /// writability, completed already when the stream is closed.
    final func writabilitySubject() -> BehaviorSubject<Bool> {
        writabilitySignal.subject(current: isWritable, closed: isClosed)
    }

    /// Records a writability change and tells `rx.writable`. Loop thread.
    private func setWritable(_ writable: Bool) {
        writableFlag.store(writable, ordering: .releasing)
        writabilitySignal.send(writable)
    }

    // MARK: Loop-thread internals

    /// Writes what the kernel takes of `payload` now (`uv_try_write`), when
    /// nothing is queued before it. Loop thread only.
    final func writeAtOnce(_ payload: StreamWritePayload) -> StreamWriteAttempt {
        guard handle.isOpen else {
            return .failed(writeError(.notConnected))
        }
        guard state.value.writes.isDrained else { return .mustQueue(from: 0) }
        let written = payload.withBuffers(from: 0) { buffers, count in handle.tryWrite(buffers, count: count) }
        if written > 0 {
            state.value.traffic?.wrote(written)
        }
        if written == payload.count {
            state.value.lastActivity = loop.clockMilliseconds
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

    /// Queues `payload` from byte `offset` on with `uv_write`, behind the
    /// writes already queued; `completion` gets `nil` or the write's error
    /// (with its operation and the peer's address). Loop thread only.
    final func queueWrite(_ payload: StreamWritePayload, from offset: Int, completion: @escaping (UVError?) -> Void) {
        guard handle.isOpen else {
            completion(writeError(.notConnected))
            return
        }
        do throws(UVError) {
            let queued = payload.count - offset
            _ = try WriteRequest(stream: handle, payload: payload, from: offset, peer: peerDescription) { [self] status in
                if status >= 0 {
                    state.value.traffic?.wrote(queued)
                }
                state.value.writes.requestCompleted()
                writeFinished()
                if state.value.writes.closesNow {
                    closeAfterWrites()
                }
                completion(status < 0 ? writeError(UVError.Code(rawValue: status)) : nil)
            }
            state.value.writes.requestQueued()
            updateQueue()
            if isWritable, queuedBytes.load(ordering: .relaxed) > highWatermark {
                pauseReading(for: .writeBackpressure)
                setWritable(false)
            }
        } catch {
            completion(error)
        }
    }

    // MARK: Writes made while a read is handled

    /// Whether a write made now on the loop thread is held, to go out with
    /// the others of the read being handled (`CoalescedWrites`): not the
    /// first write of a read's handling, nor one made outside one. Loop
    /// thread.
    @inline(__always)
    final func holdsNextWrite() -> Bool {
        handle.isOpen && state.value.writes.held.holdsNextWrite()
    }

    /// Holds a write (`holdsNextWrite()` said so) until the read's handling
    /// ends; the returned disposable (from any thread) stops its
    /// notification. Loop thread.
    ///
    /// Held bytes count against `highWatermark` like queued ones: past it,
    /// the batch goes out now, so that the write queue, and with it the
    /// backpressure (unwritable, reading paused), sees them. A read
    /// answered with many or large writes (pipelined commands whose
    /// replies outweigh them) holds at most a high watermark of them here.
    final func hold(_ payload: StreamWritePayload, for observer: any ObserverType<Never>) -> Disposable {
        let cancellation = state.value.writes.held.hold(payload, for: observer)
        if state.value.writes.held.heldBytes > highWatermark {
            flushCoalesced(holdingOn: true)
        }
        return cancellation
    }

    /// Writes the held writes as one: one `uv_try_write`, and one `uv_write`
    /// for what the kernel did not take; each subscriber is told the
    /// outcome, in order. With `holdingOn` (a batch past the high
    /// watermark), the read's later writes are held again. Loop thread.
    final func flushCoalesced(holdingOn: Bool = false) {
        // Most reads are answered with one write or none: nothing held.
        guard !state.value.writes.held.writes.isEmpty else { return }
        // A flush inside a handling (a graceful close, a shutdown) stops
        // holding: writes chained on these go out at once from here on.
        guard let (payload, batch) = state.value.writes.takeHeld(holdingOn: holdingOn) else { return }
        switch writeAtOnce(payload) {
        case .written:
            StreamWriteQueue.tell(batch, nil)
        case .failed(let error):
            StreamWriteQueue.tell(batch, error)
        case .mustQueue(let offset):
            queueWrite(payload, from: offset) { error in StreamWriteQueue.tell(batch, error) }
        }
    }

    /// Fails the held writes with `error` (the stream closed first), made
    /// only when there are some: it names the peer, which takes formatting.
    /// Loop thread.
    private func failCoalesced(_ error: @autoclosure () -> UVError) {
        guard !state.value.writes.held.writes.isEmpty else { return }
        StreamWriteQueue.tell(state.value.writes.held.take(), error())
    }

    /// The error of a failed write.
    final func writeError(_ code: UVError.Code) -> UVError {
        error(code, "uv_write")
    }

    private func writeFinished() {
        state.value.lastActivity = loop.clockMilliseconds
        updateQueue()
        if !isWritable, queuedBytes.load(ordering: .relaxed) <= lowWatermark {
            resumeReading(for: .writeBackpressure)
            if handle.isOpen {
                setWritable(true)
            }
        }
    }

    private func updateQueue() {
        queuedBytes.store(handle.isOpen ? handle.writeQueueSize : 0, ordering: .relaxed)
    }

    /// Holds the current reader's reading back for `reason` (the read
    /// gate); nothing while no one reads, since the reasons belong to the
    /// reader and go with it. Loop thread.
    final func pauseReading(for reason: ReadGate.Reasons) {
        guard reader != nil, handle.isOpen else { return }
        if state.value.readGate.close(for: reason) {
            handle.stopReading()
        }
    }

    /// Lets go of `reason`; reading resumes when no reason is left. Loop
    /// thread.
    final func resumeReading(for reason: ReadGate.Reasons) {
        guard state.value.readGate.open(for: reason), reader != nil, handle.isOpen else { return }
        do throws(UVError) {
            try handle.startReading()
        } catch {
            failReader(error)
        }
    }

    /// Makes `reader` the stream's one reader (`uv_read_start`; the
    /// handle's target is this stream while it reads): it hears each read,
    /// the end of each read's handling, and the end of reading, on the loop
    /// thread. A second reader ends at once with `EBUSY`; one on a closed
    /// or closing stream with `ENOTCONN`. Loop thread.
    public final func beginReading(_ reader: any ByteStreamReader) {
        guard self.reader == nil else {
            reader.ended(error(.busy, "StreamConnection.data (another subscriber is reading)"))
            return
        }
        guard handle.isOpen, !state.value.writes.closesWhenDrained else {
            reader.ended(error(.notConnected, "StreamConnection.data"))
            return
        }
        self.reader = reader
        handle.target = self
        do throws(UVError) {
            try handle.startReading()
        } catch {
            failReader(error)
        }
    }

    /// Ends the reading of `reader`, if it is the stream's reader: stops
    /// reading (`uv_read_stop`) and, for a stream whose life is its
    /// reading, closes it once the queued writes are flushed. Loop thread.
    public final func endReading(_ reader: any ByteStreamReader) {
        guard self.reader === reader else { return }
        detachReader()
        if lifetime == .readSubscription {
            closeGracefully()
        } else if handle.isOpen {
            handle.stopReading()
        }
    }

    /// A read subscription ended before it read: a stream whose life is its
    /// read subscription closes once its queued writes are flushed, as
    /// `endReading` would close it; an owner's stream stays. Loop thread.
    final func readEndedUnread() {
        if lifetime == .readSubscription {
            closeGracefully()
        }
    }

    /// Forgets the reader, and the reasons it was held back for; the handle
    /// no longer calls this stream.
    func detachReader() {
        reader = nil
        state.value.readGate = ReadGate()
        handle.target = nil
    }

    /// Stops reading and closes the stream once the queued writes are
    /// flushed. Loop thread.
    final func closeGracefully() {
        guard handle.isOpen else { return }
        flushCoalesced()
        handle.stopReading()
        closedFlag.store(true, ordering: .releasing)
        if state.value.writes.isDrained {
            closeAfterWrites()
        } else {
            state.value.writes.closeWhenDrained()
        }
    }

    /// Closes the handle now (with a reset where the stream has one and
    /// `reset` is set) and ends the reader and `rx.writable`. Loop thread.
    final func closeNow(reset: Bool = false) {
        closedFlag.store(true, ordering: .releasing)
        guard handle.isOpen else { return }
        if reset {
            handle.closeWithReset()
        } else {
            handle.close()
        }
        queuedBytes.store(0, ordering: .relaxed)
        state.value.spareReadStorage.release()
        endLingering()
        failCoalesced(writeError(.cancelled))
        // The reader first: its chain ends before `rx.writable` says the
        // stream has closed.
        if let reader {
            detachReader()
            reader.ended(nil)
        }
        writabilitySignal.complete()
        let onClosed = state.value.onClosed
        state.value.onClosed = nil
        onClosed?()
    }

    private func failReader(_ error: UVError) {
        let reader = self.reader
        detachReader()
        reader?.ended(error)
        closeNow()
    }

    /// A large read keeps the loop's buffer it landed in: no copy (a
    /// memmove was a twelfth of a throughput echo's CPU). Apart from
    /// `streamDidRead`, whose small reads would otherwise pay for its
    /// references.
    @inline(never)
    private func largeRead(_ bytes: UnsafeRawPointer, count: Int) -> ByteBuffer {
        loop.takeReadStorage(holding: bytes, count: count)
            ?? ByteBuffer.copying(bytes, count: count, reusing: &state.value.spareReadStorage)
    }

    /// A read completed (`uv_read_cb`, this stream being the handle's
    /// target while it reads): the bytes go to the reader, once.
    final func streamDidRead(_ count: Int, _ bytes: UnsafeRawPointer?) {
        if count > 0, let bytes {
            guard let reader else {
                lingered(count)
                return
            }
            state.value.lastActivity = loop.clockMilliseconds
            state.value.traffic?.read(count)
            // A small read is copied out, into storage its size. In place
            // (through LoopBound's `_modify`): a copy of the reference would
            // make the spare storage look shared, never reused.
            let received =
                Loop.isLargeRead(count)
                ? largeRead(bytes, count: count)
                : ByteBuffer.copying(bytes, count: count, reusing: &state.value.spareReadStorage)
            // What the reader writes while it handles the read goes out
            // together, in one write, once it is handled.
            state.value.writes.held.handling(true)
            reader.received(received)
            reader.readComplete()
            state.value.writes.held.handling(false)
            flushCoalesced()
        } else if state.value.lingering != nil {
            // The peer's end, or an error: nothing more to drop.
            closeNow()
        } else if count == Int(UVError.Code.endOfFile.rawValue) {
            handle.stopReading()
            let reader = self.reader
            detachReader()
            reader?.ended(nil)
            if lifetime == .readSubscription {
                closeGracefully()
            }
        } else if count < 0 {
            failReader(UVError(status: Int32(count), operation: "uv_read", address: peerDescription))
        }
    }
}

/// What ends a stream's life: decided once, by whoever makes the stream
/// (a libuv stream's maker, a TLS stream's).
package enum StreamLifetime: Sendable {
    /// The stream closes when its read subscription ends (after the writes
    /// already queued are flushed): a stream on its own.
    case readSubscription
    /// The stream's owner closes it (a `Server`, when the connection's
    /// handler ends), so it can still answer after the peer's EOF.
    case owner
}

extension StreamConnection: LoopConfined {
    /// `.closeStream`: closes as `close(_:)` was asked to; `.holdReading`:
    /// holds reading back or lets it go (`holdReading(_:)`).
    package func runOnLoopThread(_ step: StreamStep) {
        switch step {
        case .holdReading(true): pauseReading(for: .demand)
        case .holdReading(false): resumeReading(for: .demand)
        case .closeStream(.afterWrites): closeGracefully()
        case .closeStream(.now): closeNow()
        case .closeStream(.reset): closeNow(reset: true)
        }
    }
}
