internal import CLibUV
import Logging
import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Several loops, each run by a thread of its own: one core each. The
/// threads are named `rxuv-loop-N` after their loop's index in `loops`
/// (as `top -H`, `perf` and debuggers show them).
///
/// `loops` are created on their threads and run from the start: they stay
/// running while idle, until `shutdown()`. Each loop is a `Loop` like any
/// other: subscribe, `execute` and dispose on it from any thread, and its
/// events arrive on its own thread. `next()` hands out the loops in turn.
/// A `Server` spreads accepted connections over them.
///
/// The rule of serial delivery holds per loop: a chain runs on one loop's
/// thread. Events of two loops must not meet in one chain without
/// `observe(on:)` to one of them (or a subject, which serialises).
///
/// A group of one behaves like a `Loop` run by a thread of its own.
///
/// A group watches its loops (`watchdog`): a loop stuck in one callback
/// past the threshold is reported through its logger, and, when asked,
/// every loop's health goes to swift-metrics (`LoopWatchdog`).
public final class LoopGroup: ReactiveCompatible, Sendable {
    /// The group's loops, in order.
    public let loops: [Loop]
    /// The thread that watches the loops for stalls and records their
    /// health, labelled with their indices; `nil` when the group was made
    /// without one. It stops when the group shuts down.
    public let watchdog: LoopWatchdog?
    private let threads: [LoopThread]
    private let turn = Atomic<Int>(0)

    /// The number of cores online: the default size of a group.
    public static var coreCount: Int {
        max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    }

    /// Starts `threads` loops (at least 1), each on a new thread.
    ///
    /// Each loop's diagnostics go to `logger` (`Loop.logger`), or to the
    /// process-wide logger when it is `nil`, with the metadata `loop`: the
    /// loop's index in `loops`.
    ///
    /// `watchdog` says what the group's watchdog watches for (by default
    /// stalls past 500 ms, and no metrics; `nil` for no watchdog).
    ///
    /// Throws the `UVError` of a loop that cannot be created (`uv_loop_init`,
    /// or its wake-up handle) or of the watchdog's thread; the loops
    /// already started are shut down.
    public init(threads: Int = LoopGroup.coreCount, logger: Logger? = nil, watchdog: LoopWatchdog.Options? = LoopWatchdog.Options()) throws(UVError) {
        var started: [LoopThread] = []
        for index in 0..<max(threads, 1) {
            do throws(UVError) {
                started.append(try LoopThread(index: index))
            } catch {
                for thread in started { _ = thread.stopAndClose() }
                throw error
            }
        }
        let loops: [Loop] = started.map { $0.loop }
        for (index, loop) in loops.enumerated() {
            if let logger {
                loop.logger = logger
            }
            loop.tagLogs("loop", "\(index)")
        }
        do throws(UVError) {
            self.watchdog = try watchdog.map { options throws(UVError) in try LoopWatchdog(watching: loops, options: options) }
        } catch {
            for thread in started { _ = thread.stopAndClose() }
            throw error
        }
        self.threads = started
        self.loops = loops
    }

    /// The next loop, round robin. Safe from any thread.
    public func next() -> Loop {
        let index = turn.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }

    /// Stops every loop, closes it on its own thread (`Loop.close`) and
    /// joins the threads. Safe from any thread but the group's own (there it
    /// throws `EINVAL`). A loop that cannot close refuses work afterwards.
    ///
    /// Throws `EBUSY` naming, loop by loop, the handles still open (`loop 1:
    /// 2 open handles: tcp, timer`): drain servers and dispose long-lived
    /// chains first (`gracefulShutdown`). Shutting down twice does nothing.
    public func shutdown() throws(UVError) {
        guard !loops.contains(where: { $0.isOnLoopThread }) else {
            // A thread cannot join itself.
            throw UVError(code: .invalidArgument, operation: "LoopGroup.shutdown", address: "called on one of the group's own threads")
        }
        watchdog?.stop()
        let problems = threads.compactMap { thread in thread.stopAndClose().map { "loop \(thread.index): \($0.address ?? "\($0)")" } }
        if !problems.isEmpty {
            throw UVError(code: .busy, operation: "LoopGroup.shutdown", address: problems.joined(separator: "; "))
        }
    }
}

/// One loop of a group and the thread that runs it.
// @unchecked Sendable: `loop` is Sendable; `thread` and `closeError` are
// written once before other threads read them (ordered by the semaphore
// and by `pthread_join`), `state` is under its lock.
private final class LoopThread: @unchecked Sendable {
    let index: Int
    private(set) var loop: Loop!
    private var thread = pthread_t()
    private var startError: UVError?
    /// What `Loop.close` said on the thread, once it ran.
    private var closeError: UVError?
    /// Posted once the thread has made its loop (or failed to).
    private let started = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let state = Mutex((isStopping: false, isJoined: false))

    init(index: Int) throws(UVError) {
        self.index = index
        sem_init(started, 0, 0)
        thread = try startSystemThread { [self] in main() }
        while sem_wait(started) != 0 {}
        if let startError {
            pthread_join(thread, nil)
            throw startError
        }
    }

    /// The thread: makes the loop (so its thread is this one from the
    /// start), runs it until stopped, then closes it.
    private func main() {
        // Named for `top -H`, `perf` and debuggers (at most 15 bytes on Linux).
        _ = rxuv_set_thread_name("rxuv-loop-\(index)")
        let loop: Loop
        do throws(UVError) {
            loop = try Loop()
        } catch {
            startError = error
            sem_post(started)
            return
        }
        self.loop = loop
        loop.keepRunning(true)
        sem_post(started)
        while !state.withLock({ $0.isStopping }) {
            loop.run()
        }
        loop.keepRunning(false)
        do throws(UVError) {
            try loop.close()
        } catch {
            closeError = error
            // Nothing will run this loop again: refuse work rather than
            // accept it silently.
            loop.refuseWork()
        }
    }

    /// Stops the loop, waits for its thread, and returns what closing the
    /// loop said. Once; later calls return `nil`.
    func stopAndClose() -> UVError? {
        let first = state.withLock { state -> Bool in
            defer { state.isStopping = true }
            return !state.isStopping
        }
        guard first else { return nil }
        // The flag is set first: the thread sees it when run() returns.
        loop.stop()
        pthread_join(thread, nil)
        return closeError
    }

    deinit {
        sem_destroy(started)
        started.deallocate()
    }
}
