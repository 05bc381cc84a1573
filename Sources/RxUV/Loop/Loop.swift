internal import CLibUV
import Logging
import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One libuv event loop (`uv_loop_t`) and the thread that runs it.
///
/// Every libuv call for the loop's handles runs on the loop thread. Until
/// the loop first runs, that is the thread that created it (so a program
/// can subscribe before `run()`); the first `run()` (or `runOnce()`,
/// `runNoWait()`) makes its calling thread the loop thread for the rest of
/// the loop's life, and running the loop on any other thread afterwards is
/// a programmer error (a precondition). The one hand-over: a `LoopGroup`
/// loop whose thread ended without closing it (`LoopGroup.shutdown` threw)
/// is let go, and the thread that runs it next takes it over. A fixed identity is what lets
/// `isOnLoopThread` answer without a lock and work run inline on the loop
/// thread. `execute(_:)` is the thread-safe way in: it queues work and wakes
/// the loop through a `uv_async_t`; subscribing to or disposing a bridge
/// Observable from another thread goes through the same queue.
///
/// `Loop` is also a `SchedulerType` (see `Loop+Scheduler.swift`), so RxCore's
/// time operators run on libuv timers.
///
/// A `Loop` is `Sendable`: hand it to any thread or task to `execute`,
/// `stop`, subscribe or dispose there.
// @unchecked Sendable: what other threads touch is the work queue and its
// wake-up handle (`LoopWorkQueue`, under its lock), `owner` and the handle counts
// (atomic, locked). Everything else is the loop thread's: `raw` (every libuv
// call but `uv_async_send` runs on that thread), `isClosed` and the read
// buffer, as the loop-thread methods' doc comments say.
public final class Loop: ReactiveCompatible, @unchecked Sendable {
    let raw: UnsafeMutablePointer<uv_loop_t>

    /// Work queued by other threads (and jobs of Swift concurrency), and the
    /// handle that wakes the loop for it.
    let queue: LoopWorkQueue
    /// The loop's turns, what it runs, its timers' lateness: its health,
    /// for any thread to read (`Loop+Health.swift`).
    package let vitals: LoopVitals
    /// The prepare handle that counts the loop's turns (loop thread only).
    private var heartbeat: Owned<UVPrepare>?
    /// The loop as actors' serial executor (`asUnownedSerialExecutor()`).
    let actorExecutor = LoopActorExecutor()
    /// Whether the loop runs a job as the task executor now (loop thread
    /// only): see `LoopActorExecutor`.
    var runsTaskExecutorJob = false
    /// The jobs of Swift concurrency run so far (loop thread only): what
    /// the tests count hops by.
    var jobsRun = 0
    /// Open handles counted by kind (`timer`, `tcp`...): counts rather than
    /// a record per handle, so a million timers cost the loop nothing here.
    private let openHandles = Mutex<[Int]>(Array(repeating: 0, count: UVHandleKind.allCases.count))
    private let owner: Atomic<UInt>
    /// Set by the first run: `owner` is fixed from then on.
    private let ownerIsFixed = Atomic<Bool>(false)
    private(set) var isClosed = false
    /// The logger handed in (`logger`), and the metadata a `LoopGroup`
    /// adds to whichever logger the loop uses (its index).
    let logging = Mutex<(logger: Logger?, metadata: Logger.Metadata)>((nil, [:]))

    /// The buffer every stream read and datagram on this loop lands in
    /// (loop thread only): libuv calls the read callback right after the
    /// allocation callback, so one buffer serves all connections, as in a
    /// C server that reuses its read buffer. The read callback copies a
    /// small read out; a large one takes the buffer itself
    /// (`takeReadStorage`), and the next read gets another.
    package var readBuffer: UnsafeMutableRawBufferPointer {
        readMemory ?? nextReadBuffer()
    }

    /// The size of `readBuffer`: libuv's suggestion for a read.
    static var readBufferSize: Int { 64 * 1024 }

    /// Whether `count` bytes at the start of `readBuffer` are a large read,
    /// one that takes the buffer (`takeReadStorage`) instead of being
    /// copied out: at least half of it, so that a buffer never holds more
    /// than twice its bytes.
    package static func isLargeRead(_ count: Int) -> Bool {
        count >= readBufferSize / 2
    }

    /// The storage `readBuffer` is the memory of.
    private var readStorage: ByteBuffer.Storage?
    /// `readStorage`'s memory, kept beside it: every read asks for it, and
    /// it is read here without going through the storage.
    private var readMemory: UnsafeMutableRawBufferPointer?
    /// The storage a large read took last: taken back for the next read
    /// once nothing else holds it (the bytes were written on, or dropped).
    private var takenReadStorage: ByteBuffer.Storage?

    /// Makes the next read's buffer current: the storage a large read took,
    /// when nothing holds it any more, else a new one.
    private func nextReadBuffer() -> UnsafeMutableRawBufferPointer {
        let storage: ByteBuffer.Storage
        if isKnownUniquelyReferenced(&takenReadStorage), let taken = takenReadStorage {
            storage = taken
        } else {
            storage = ByteBuffer.Storage.make(capacity: Self.readBufferSize, count: 0)
        }
        takenReadStorage = nil
        readStorage = storage
        // The size it was made with: `capacity` asks malloc.
        let memory = UnsafeMutableRawBufferPointer(start: storage.withUnsafeMutablePointerToElements { $0 }, count: Self.readBufferSize)
        readMemory = memory
        return memory
    }

    /// The `count` bytes a read left at the start of `readBuffer`, as a
    /// buffer of their own without a copy: the buffer's storage goes with
    /// them, and the next read gets another. `nil` when `bytes` is not
    /// `readBuffer` (the read landed elsewhere). For a large read only
    /// (`isLargeRead`). Loop thread.
    package func takeReadStorage(holding bytes: UnsafeRawPointer, count: Int) -> ByteBuffer? {
        guard let storage = readStorage, bytes == UnsafeRawPointer(readMemory?.baseAddress) else { return nil }
        readStorage = nil
        readMemory = nil
        takenReadStorage = storage
        return ByteBuffer(adopting: storage, count: count)
    }

    /// The loop's timers, on one `uv_timer_t` (loop thread only).
    var timers: LoopTimerQueue {
        if let timerQueue { return timerQueue }
        let queue = LoopTimerQueue(loop: self)
        timerQueue = queue
        return queue
    }

    private(set) var timerQueue: LoopTimerQueue?

    /// Creates and initialises a loop (`uv_loop_init`).
    public init() throws(UVError) {
        // Until every stored property is set, a throw frees nothing but what
        // it names; after that, a throw runs deinit, which closes the loop.
        let raw = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        do {
            try uvCall("uv_loop_init") { uv_loop_init(raw) }
        } catch {
            raw.deallocate()
            throw error
        }
        self.raw = raw
        let vitals = LoopVitals()
        self.vitals = vitals
        queue = LoopWorkQueue(vitals: vitals)
        owner = Atomic(UInt(bitPattern: Int(bitPattern: pthread_self())))
        actorExecutor.loop = self
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
        try openQueue()
    }

    /// `true` when called on the thread that runs (or will run) this loop.
    public var isOnLoopThread: Bool {
        pthread_equal(pthread_self(), pthread_t(bitPattern: Int(bitPattern: owner.load(ordering: .acquiring)))) != 0
    }

    /// The number of handles (timers, signals, TCP sockets...) open on this
    /// loop: initialised and not yet through their close callback. The loop's
    /// own wake-up handle is not counted.
    public var openHandleCount: Int {
        openHandles.withLock { $0.reduce(0, +) }
    }

    /// The handles open, by kind (`UVHandleKind.rawValue`), copied into
    /// storage of the caller's: a sample kept by another thread must not
    /// make the loop's next count copy its array. Any thread.
    var openHandlesByKind: [Int] {
        openHandles.withLock { counts in counts.map { $0 } }
    }

    /// Runs the loop until no handle or request is active (`uv_run` with
    /// `UV_RUN_DEFAULT`). The first run makes the calling thread the loop
    /// thread for good; later runs must be on that thread.
    ///
    /// - Returns: `true` if `stop()` ended the run while work was still active.
    @discardableResult
    public func run() -> Bool {
        runLoop(UV_RUN_DEFAULT)
    }

    /// Runs one iteration, waiting for I/O if there is nothing to do yet
    /// (`UV_RUN_ONCE`).
    ///
    /// - Returns: `true` if handles or requests are still active.
    @discardableResult
    public func runOnce() -> Bool {
        runLoop(UV_RUN_ONCE)
    }

    /// Runs one iteration without waiting for I/O (`UV_RUN_NOWAIT`).
    ///
    /// - Returns: `true` if handles or requests are still active.
    @discardableResult
    public func runNoWait() -> Bool {
        runLoop(UV_RUN_NOWAIT)
    }

    private func runLoop(_ mode: uv_run_mode) -> Bool {
        precondition(!isClosed, "Loop.run: the loop is closed")
        if ownerIsFixed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            owner.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
        } else {
            precondition(isOnLoopThread, "Loop.run: the loop's thread is the one that first ran it; run it there")
        }
        queue.keepAliveForPendingWork()
        vitals.setInRun(true)
        defer { vitals.setInRun(false) }
        return uv_run(raw, mode) != 0
    }

    /// The loop's clock in milliseconds (`uv_now`: updated once per
    /// iteration, so reading it costs a load). Loop thread.
    var clockMilliseconds: UInt64 {
        uv_now(raw)
    }

    /// Now on the monotonic clock, in nanoseconds (`uv_hrtime`:
    /// `CLOCK_MONOTONIC`, read at each call; any thread). For timing work:
    /// two readings subtract as integers, in the unit swift-metrics'
    /// `Timer.recordNanoseconds` takes.
    public static var monotonicNanoseconds: Int64 {
        Int64(bitPattern: uv_hrtime())
    }

    /// Keeps `run()` running while the loop is idle (`true`), until `stop()`;
    /// or lets it return again when nothing is active (`false`, the
    /// default). A `LoopGroup`'s loops keep running. Loop thread.
    func keepRunning(_ enabled: Bool) {
        queue.keepLoopAlive(enabled)
    }

    /// Asks a running loop to return from `run()` after the current
    /// iteration (`uv_stop`). Safe from any thread.
    public func stop() {
        enter { [self] in uv_stop(self.raw) }
    }

    /// Queues `work` to run on the loop thread, in order, during the loop's
    /// next iteration. Safe from any thread; nothing queued is lost while the
    /// loop is open (libuv coalesces wake-ups; each wake-up drains the queue).
    ///
    /// Work queued from another thread while the loop is not running waits
    /// for the next `run()`.
    ///
    /// - Returns: `false` if the loop is closed; `work` is then not run.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        queue.enqueue(.closure(work), onLoopThread: isOnLoopThread)
    }

    /// The one door to the loop thread, for a loop-confined object's step,
    /// one of its own vocabulary (`Target.Step`): runs
    /// `target.runOnLoopThread(step)` now when called there, otherwise
    /// queues the step as one typed item (the target and the step packed,
    /// no closure) and wakes the loop. Every hop of the bridge (a subscription
    /// opening or closing what it owns, a stream closing, a server placing
    /// a connection) comes through here or through `enter(_:)` for a
    /// closure; `execute` is the same queue without the shortcut. Returns
    /// `false` when the loop is closed; the step is then not run.
    ///
    /// Inlined, so that a generic caller (a sink) calls its own step
    /// directly on the loop thread.
    @inline(__always)
    @discardableResult
    package func enter<Target: LoopConfined>(_ target: Target, _ step: Target.Step) -> Bool {
        if isOnLoopThread {
            target.runOnLoopThread(step)
            return true
        }
        return enqueue(.step(target, step.packed))
    }

    /// The one door, for work that is a closure: runs `work` now when called
    /// on the loop thread, otherwise queues it. Returns `false` when the loop
    /// is closed; `work` is then not run.
    @discardableResult
    package func enter(_ work: @escaping @Sendable () -> Void) -> Bool {
        if isOnLoopThread {
            work()
            return true
        }
        return enqueue(.closure(work))
    }

    /// The off-thread half of the door.
    @inline(never)
    private func enqueue(_ work: LoopWork) -> Bool {
        queue.enqueue(work, onLoopThread: false)
    }

    /// Counts a handle of `kind` open: a `UVHandle` after its init, a
    /// `LoopTimer` when it starts.
    func handleOpened(kind: UVHandleKind) {
        openHandles.withLock { $0[kind.rawValue] += 1 }
    }

    /// Counts a handle of `kind` closed.
    func handleClosed(kind: UVHandleKind) {
        openHandles.withLock { $0[kind.rawValue] -= 1 }
    }

    /// Closes the loop (`uv_loop_close`), after running the work still queued.
    ///
    /// Throws a `UVError` (`EBUSY`) that names the handles still open, such
    /// as `3 open handles: 2 tcp, timer`; the loop then stays usable. Call it
    /// on the loop thread after `run()` returned. Closing twice does nothing.
    public func close() throws(UVError) {
        if isClosed { return }
        precondition(isOnLoopThread, "Loop.close must be called on the loop thread")
        runNoWait()
        if let busy = openHandlesError() {
            throw busy
        }
        // Work another thread queued after that run was accepted: it runs
        // now. If it opened handles, the loop stays open and says so.
        let leftover = closeOwnHandles()
        if !leftover.isEmpty {
            leftover.forEach { $0.run() }
            runNoWait()
            if let busy = openHandlesError() {
                reopenQueue()
                throw busy
            }
        }
        uv_run(raw, UV_RUN_NOWAIT)
        vitals.loopClosing()
        do {
            try uvCall("uv_loop_close") { uv_loop_close(raw) }
        } catch {
            // Still open (a request in flight): take work again, as before.
            reopenQueue()
            throw error
        }
        isClosed = true
    }

    /// `EBUSY` naming the handles still open, or `nil` when none is.
    private func openHandlesError() -> UVError? {
        let open = openHandles.withLock { $0 }
        let total = open.reduce(0, +)
        guard total > 0 else { return nil }
        // The kinds are declared in alphabetical order.
        let kinds = UVHandleKind.allCases.compactMap { kind -> String? in
            let count = open[kind.rawValue]
            return count == 0 ? nil : count == 1 ? kind.name : "\(count) \(kind.name)"
        }
        return UVError(code: UVError.Code.busy, operation: "Loop.close", address: "\(total) open handle\(total == 1 ? "" : "s"): \(kinds.joined(separator: ", "))")
    }

    /// Refuses work from now on (`execute` returns `false`) and runs what was
    /// accepted already: a loop whose thread is ending without closing
    /// (`Loop.close` failed), so no one is promised work it will never run.
    /// Loop thread.
    func refuseWork() {
        let leftover = closeOwnHandles()
        leftover.forEach { $0.run() }
        // This thread is ending: no thread is the loop's (a new one may get
        // this one's pthread_t) until the next to run it takes it over.
        owner.store(0, ordering: .releasing)
        ownerIsFixed.store(false, ordering: .releasing)
    }

    /// Makes the loop's own handles: the queue's two (its wake-up
    /// `uv_async_t` and the `uv_idle_t` that runs the loop thread's own
    /// work), then opens it, and the heartbeat that counts turns. If a
    /// handle cannot be made, those made before it close as their owners
    /// go. Loop thread.
    private func openQueue() throws(UVError) {
        let runner = Owned(try UVIdle(loop: self, isLoopInternal: true, target: queue))
        let prepare = Owned(try UVPrepare(loop: self))
        try prepare.resource.start()
        queue.open(with: try UVAsync(loop: self, isLoopInternal: true, target: queue), runner: runner)
        heartbeat = consume prepare
    }

    /// Closes the loop's own handles (`openQueue`) and returns the work
    /// the queue had accepted and not run. Loop thread.
    private func closeOwnHandles() -> [LoopWork] {
        heartbeat.take()?.release()
        return queue.close()
    }

    /// Takes work again after a close that failed (`openQueue`). If the
    /// queue's handles cannot be made, the loop goes on refusing work
    /// (`execute` and `enter` return `false`) and the error is reported to
    /// the loop's logger (`Loop.logger`). Loop thread.
    private func reopenQueue() {
        do throws(UVError) {
            try openQueue()
        } catch {
            report(error, ReportContext(loop: self))
        }
    }

    deinit {
        if !isClosed {
            // Work still queued cannot run on a loop that is going away:
            // said, not dropped in silence.
            let dropped = closeOwnHandles().count
            if dropped > 0 {
                report(UVError(code: UVError.Code.cancelled, operation: "Loop (released with \(dropped) queued work item\(dropped == 1 ? "" : "s") that will not run)"), ReportContext(logger: logger))
            }
            uv_run(raw, UV_RUN_NOWAIT)
            if uv_loop_close(raw) == 0 {
                raw.deallocate()
            }
        } else {
            raw.deallocate()
        }
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
