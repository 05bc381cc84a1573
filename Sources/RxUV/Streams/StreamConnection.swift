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
    let queuedBytes = Atomic<Int>(0)
    let closedFlag = Atomic<Bool>(false)
    let writableFlag = Atomic<Bool>(true)
    /// `rx.writable`'s subject, made by its first subscriber.
    let writabilitySignal = WritabilitySignal()

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
    let lifetime: StreamLifetime

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
        FileSend.completable(stream: self, file: file, range: range, direct: FileSend.directPath(sendingTo: self))
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
