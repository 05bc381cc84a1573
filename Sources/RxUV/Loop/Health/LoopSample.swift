/// A loop's counters at one instant (`Loop.sample()`): two samples make a
/// `LoopHealth` (the window between them), and the watchdog compares
/// successive samples to tell a loop that turns from a stuck one.
package struct LoopSample: Sendable, Equatable {
    /// When it was taken, on the monotonic clock (`uv_hrtime`), in nanoseconds.
    package var time: Int64
    /// The time the loop has spent waiting in the kernel's event provider
    /// so far (`uv_metrics_idle_time`), in nanoseconds; 0 while it is not
    /// measured.
    package var idleNanoseconds: UInt64
    /// Whether the loop measures its idle time (`Loop.measureUtilization`).
    package var measuresIdleTime: Bool
    /// The loop's turns so far.
    package var iterations: UInt64
    /// What the loop was running when the sample was taken.
    package var activity: LoopActivity
    /// Whether the loop thread was inside `run()`.
    package var isRunning: Bool
    /// The loop's timers fired so far, and how late in total (milliseconds).
    package var timersFired: UInt64
    package var timerLatenessMilliseconds: UInt64
    /// The work other threads queued through the loop's door and the loop
    /// has not run yet.
    package var waitingWork: Int
    /// The handles open on the loop, by kind (`UVHandleKind.rawValue`).
    package var openHandles: [Int]

    package init(
        time: Int64, idleNanoseconds: UInt64, measuresIdleTime: Bool = true, iterations: UInt64, activity: LoopActivity = .none, isRunning: Bool = true,
        timersFired: UInt64 = 0, timerLatenessMilliseconds: UInt64 = 0, waitingWork: Int = 0, openHandles: [Int] = []
    ) {
        self.time = time
        self.idleNanoseconds = idleNanoseconds
        self.measuresIdleTime = measuresIdleTime
        self.iterations = iterations
        self.activity = activity
        self.isRunning = isRunning
        self.timersFired = timersFired
        self.timerLatenessMilliseconds = timerLatenessMilliseconds
        self.waitingWork = waitingWork
        self.openHandles = openHandles
    }

    /// Whether the loop made progress between `earlier` and this sample:
    /// it turned, or it is waiting for I/O (no callback since its
    /// heartbeat), or it was not running. A loop that did none of these
    /// was stuck in one callback.
    package func showsProgress(since earlier: LoopSample) -> Bool {
        !isRunning || iterations != earlier.iterations || activity == .waitingForIO
    }
}
