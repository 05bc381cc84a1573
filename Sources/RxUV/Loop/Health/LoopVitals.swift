internal import CLibUV
import Synchronization

/// What a loop keeps about its own running, for any thread to read: how
/// many turns it has made, whether it is inside `run()`, what it runs now,
/// how late its timers fired. The loop thread writes each counter (a plain
/// store: it is the only writer); the watchdog's thread and
/// `loop.rx.health` read them (`LoopSample`). Together with libuv's idle
/// time (`uv_metrics_idle_time`, measured from the first time someone asks
/// for the loop's utilization) they are the loop's health.
package final class LoopVitals: Sendable {
    /// The loop's turns, counted by its prepare handle (`UVPrepare`).
    private let iterations = Atomic<UInt64>(0)
    /// What the loop runs now (`LoopActivity.code`).
    private let activity = Atomic<UInt8>(0)
    /// Whether the loop thread is inside `uv_run`.
    private let inRun = Atomic<Bool>(false)
    /// The loop's timers fired so far (`LoopTimerQueue`), and how late
    /// they fired in total, in the loop clock's milliseconds.
    private let timersFired = Atomic<UInt64>(0)
    private let timerLateness = Atomic<UInt64>(0)
    /// Whether libuv's idle-time metric can be read: from when it was
    /// started (`measureIdleTime`) to the loop's close (`uv_loop_close`
    /// destroys the metric's lock).
    private let idleTimeReadable = Mutex(false)

    /// The loop made a turn and is about to wait for I/O. Loop thread.
    @inline(__always)
    func turned() {
        iterations.store(iterations.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        activity.store(LoopActivity.waitingForIO.code, ordering: .relaxed)
    }

    /// The loop runs `what` now. Loop thread.
    @inline(__always)
    func running(_ what: LoopActivity) {
        activity.store(what.code, ordering: .relaxed)
    }

    /// A timer due at `due` fired at `now` (the loop's clock, in
    /// milliseconds). Loop thread.
    @inline(__always)
    func timerFired(due: UInt64, now: UInt64) {
        timersFired.store(timersFired.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        if now > due {
            timerLateness.store(timerLateness.load(ordering: .relaxed) &+ (now - due), ordering: .relaxed)
        }
    }

    /// The loop thread enters (`true`) or leaves `uv_run`.
    func setInRun(_ running: Bool) {
        inRun.store(running, ordering: .releasing)
    }

    /// Starts libuv's idle-time metric (`uv_loop_configure` with
    /// `UV_METRICS_IDLE_TIME`) on `raw`, unless it runs already: from then
    /// on libuv reads the clock and takes a lock around each poll that may
    /// block, for as long as the loop lives. Loop thread.
    func measureIdleTime(of raw: UnsafeMutablePointer<uv_loop_t>) {
        idleTimeReadable.withLock { readable in
            if !readable {
                readable = rxuv_loop_measure_idle_time(raw) == 0
            }
        }
    }

    /// The loop is closing: the idle-time metric is not read from now on.
    func loopClosing() {
        idleTimeReadable.withLock { $0 = false }
    }

    /// What the loop's counters say now, with `waitingWork` and
    /// `openHandles` from the loop. Any thread.
    func sample(of raw: UnsafeMutablePointer<uv_loop_t>, waitingWork: Int, openHandles: [Int]) -> LoopSample {
        // The idle time is read under the lock `loopClosing` takes, so
        // never after `uv_loop_close`; libuv makes the read itself
        // thread-safe.
        let idle = idleTimeReadable.withLock { readable in readable ? uv_metrics_idle_time(raw) : nil }
        return LoopSample(
            time: Loop.monotonicNanoseconds,
            idleNanoseconds: idle ?? 0,
            measuresIdleTime: idle != nil,
            iterations: iterations.load(ordering: .relaxed),
            activity: LoopActivity(reading: activity.load(ordering: .relaxed)),
            isRunning: inRun.load(ordering: .acquiring),
            timersFired: timersFired.load(ordering: .relaxed),
            timerLatenessMilliseconds: timerLateness.load(ordering: .relaxed),
            waitingWork: waitingWork,
            openHandles: openHandles)
    }
}
