/// How a loop did over a window of time: what `loop.rx.health(every:)`
/// emits, and what a `LoopWatchdog` records as metrics.
///
/// Every figure but the last two is about the window: the share of it the
/// loop was busy, the turns it made, how late its timers fired. The work
/// waiting at the loop's door and the open handles are as they were at
/// the window's end.
public struct LoopHealth: Sendable, Equatable {
    /// The window's length.
    public var interval: Duration
    /// The share of the window the loop was busy, from 0 (it waited for
    /// I/O all along) to 1 (it never waited): 1 minus the time libuv spent
    /// in the kernel's event provider (`uv_metrics_idle_time`) over the
    /// window's length. A loop outside `run()` counts as busy; so does one
    /// whose idle time nobody has asked to measure.
    public var utilization: Double
    /// The loop's turns in the window (one per `uv_run` iteration, counted
    /// by a `uv_prepare_t`).
    public var iterations: UInt64
    /// How late the loop's timers fired in the window, on average: the
    /// loop's clock at the expiry minus the due time (whole milliseconds,
    /// as libuv's timers keep time); zero when no timer fired.
    public var timerLag: Duration
    /// The timers that fired in the window.
    public var timersFired: UInt64
    /// The work other threads had queued through the loop's door
    /// (`Loop.execute`, steps, jobs of Swift concurrency) and the loop had
    /// not run yet, at the window's end.
    public var waitingWork: Int
    /// The handles open on the loop at the window's end, by libuv's name
    /// of their kind (`tcp`, `timer`, `udp`...), kinds with none left out.
    public var openHandles: [String: Int]

    /// A health value from its parts (for tests and for code that
    /// aggregates loops).
    public init(
        interval: Duration, utilization: Double, iterations: UInt64, timerLag: Duration, timersFired: UInt64, waitingWork: Int,
        openHandles: [String: Int]
    ) {
        self.interval = interval
        self.utilization = utilization
        self.iterations = iterations
        self.timerLag = timerLag
        self.timersFired = timersFired
        self.waitingWork = waitingWork
        self.openHandles = openHandles
    }

    /// The window from `start` to `end`, two samples of the same loop.
    package init(from start: LoopSample, to end: LoopSample) {
        let wall = max(end.time - start.time, 0)
        let idle = end.idleNanoseconds >= start.idleNanoseconds ? end.idleNanoseconds - start.idleNanoseconds : 0
        interval = .nanoseconds(wall)
        utilization = wall == 0 ? 0 : min(max(1 - Double(idle) / Double(wall), 0), 1)
        iterations = end.iterations &- start.iterations
        timersFired = end.timersFired &- start.timersFired
        let lateness = end.timerLatenessMilliseconds &- start.timerLatenessMilliseconds
        timerLag = timersFired == 0 ? .zero : .milliseconds(Double(lateness) / Double(timersFired))
        waitingWork = end.waitingWork
        var handles: [String: Int] = [:]
        for (index, count) in end.openHandles.enumerated() where count != 0 {
            if let kind = UVHandleKind(rawValue: index) {
                handles[kind.name] = count
            }
        }
        openHandles = handles
    }
}
