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
/// The stalls are counted whenever the watchdog watches for them; the
/// health instruments exist when it records health (a metrics interval).
/// Touched on the watchdog's thread only.
final class LoopMetrics: Sendable {
    private struct Health {
        let utilization: Gauge
        let iterations: Counter
        let timerLag: Gauge
        let waitingWork: Gauge
        /// By `UVHandleKind.rawValue`.
        let openHandles: [Gauge]
    }

    private let health: Health?
    let stalls: Counter
    let stallDuration: CoreMetrics.Timer

    /// The instruments of the loop labelled `loop`, made by `factory`: the
    /// health ones when `recordsHealth`.
    init(loop: String, factory: any MetricsFactory, recordsHealth: Bool) {
        let dimensions = [("loop", loop)]
        health =
            recordsHealth
            ? Health(
                utilization: Gauge(label: "rxuv_loop_utilization", dimensions: dimensions, factory: factory),
                iterations: Counter(label: "rxuv_loop_iterations", dimensions: dimensions, factory: factory),
                timerLag: Gauge(label: "rxuv_loop_timer_lag_seconds", dimensions: dimensions, factory: factory),
                waitingWork: Gauge(label: "rxuv_loop_waiting_work", dimensions: dimensions, factory: factory),
                openHandles: UVHandleKind.allCases.map { kind in
                    Gauge(label: "rxuv_loop_open_handles", dimensions: dimensions + [("kind", kind.name)], factory: factory)
                }) : nil
        stalls = Counter(label: "rxuv_loop_stalls", dimensions: dimensions, factory: factory)
        stallDuration = CoreMetrics.Timer(label: "rxuv_loop_stall_duration", dimensions: dimensions, factory: factory)
    }

    /// Records the window `window` (when the health instruments exist).
    func record(_ window: LoopHealth) {
        guard let health else { return }
        health.utilization.record(window.utilization)
        health.iterations.increment(by: Int64(clamping: window.iterations))
        let (seconds, attoseconds) = window.timerLag.components
        health.timerLag.record(Double(seconds) + Double(attoseconds) / 1e18)
        health.waitingWork.record(window.waitingWork)
        for kind in UVHandleKind.allCases {
            health.openHandles[kind.rawValue].record(window.openHandles[kind.name] ?? 0)
        }
    }
}
