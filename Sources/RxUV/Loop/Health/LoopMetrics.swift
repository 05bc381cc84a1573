import CoreMetrics

/// One loop's instruments, which its `LoopWatchdog` records through
/// swift-metrics, each with the dimension `loop` (the loop's label):
///
/// - `rxuv_loop_utilization` (gauge, 0 to 1): the busy share of the last
///   metrics interval (`LoopHealth.utilization`);
/// - `rxuv_loop_iterations` (counter): the loop's turns;
/// - `rxuv_loop_timer_lag_seconds` (gauge): how late its timers fired in
///   the last interval, on average;
/// - `rxuv_loop_waiting_work` (gauge): the work queued at its door;
/// - `rxuv_loop_open_handles` (gauge, with the dimension `kind`): its open
///   handles by kind;
/// - `rxuv_loop_stalls` (counter) and `rxuv_loop_stall_duration` (timer):
///   the stalls the watchdog reported, and each one's length when it ended.
///
/// Touched on the watchdog's thread only.
final class LoopMetrics: Sendable {
    private let utilization: Gauge
    private let iterations: Counter
    private let timerLag: Gauge
    private let waitingWork: Gauge
    /// By `UVHandleKind.rawValue`.
    private let openHandles: [Gauge]
    let stalls: Counter
    let stallDuration: CoreMetrics.Timer

    /// The instruments of the loop labelled `loop`, made by `factory`.
    init(loop: String, factory: any MetricsFactory) {
        let dimensions = [("loop", loop)]
        utilization = Gauge(label: "rxuv_loop_utilization", dimensions: dimensions, factory: factory)
        iterations = Counter(label: "rxuv_loop_iterations", dimensions: dimensions, factory: factory)
        timerLag = Gauge(label: "rxuv_loop_timer_lag_seconds", dimensions: dimensions, factory: factory)
        waitingWork = Gauge(label: "rxuv_loop_waiting_work", dimensions: dimensions, factory: factory)
        openHandles = UVHandleKind.allCases.map { kind in
            Gauge(label: "rxuv_loop_open_handles", dimensions: dimensions + [("kind", kind.name)], factory: factory)
        }
        stalls = Counter(label: "rxuv_loop_stalls", dimensions: dimensions, factory: factory)
        stallDuration = CoreMetrics.Timer(label: "rxuv_loop_stall_duration", dimensions: dimensions, factory: factory)
    }

    /// Records the window `health`.
    func record(_ health: LoopHealth) {
        utilization.record(health.utilization)
        iterations.increment(by: Int64(clamping: health.iterations))
        let (seconds, attoseconds) = health.timerLag.components
        timerLag.record(Double(seconds) + Double(attoseconds) / 1e18)
        waitingWork.record(health.waitingWork)
        for kind in UVHandleKind.allCases {
            openHandles[kind.rawValue].record(health.openHandles[kind.name] ?? 0)
        }
    }
}
