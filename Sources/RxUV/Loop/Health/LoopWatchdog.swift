internal import CLibUV
import CoreMetrics
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread that watches loops from outside: it notices a loop that has
/// not turned for longer than a threshold (a stall: one callback holding
/// the loop's thread), and records each loop's health through
/// swift-metrics (`LoopMetrics`). Every `LoopGroup` has one
/// (`LoopGroup.watchdog`); a standalone loop gets one by making it.
///
/// Stalls: every period (an eighth of the threshold, between 5 and 250
/// ms) the watchdog samples each loop: a loop that has not turned since
/// the last sample (its `uv_prepare_t` counts turns) and is not waiting
/// for I/O (that handle notes the wait, any callback its end) is stuck. Once it has been stuck for the threshold, the watchdog reports a
/// `LoopStall` through the loop's logger, once, at level `warning`, with
/// the kind of callback it was running; when the loop turns again, it
/// reports the stall's whole length at `notice` and records it in
/// `rxuv_loop_stall_duration`. A loop outside `run()` is never stalled.
///
/// Its thread wakes every period (62 ms with the default threshold) for
/// as long as it watches; the sampling is done there. The loops only note
/// their turns (a `uv_prepare_t`) and the kind of callback they run, which
/// every loop does, watched or not. Recording metrics also starts each
/// loop's idle-time measure (libuv's `UV_METRICS_IDLE_TIME`).
///
/// The watchdog holds its loops until `stop()` (or until it goes away),
/// which must come before the loops close. Safe from any thread.
public final class LoopWatchdog: Sendable {
    /// What a watchdog watches for, and where it records.
    public struct Options: Sendable {
        /// How long a loop may go without turning before it is reported as
        /// stalled; `nil` watches for no stalls. 500 ms by default: well
        /// above what a healthy loop's longest turn takes (a burst of TLS
        /// handshakes takes milliseconds) and what a loaded machine's
        /// scheduler takes from a thread (tens of milliseconds), and well
        /// under what a person notices as a hang. At least 10 ms.
        public var stallThreshold: Duration?
        /// How often each loop's health is recorded through swift-metrics
        /// (`LoopMetrics`); `nil` (the default) records none. Recording
        /// starts each loop's idle-time measure, for its utilization.
        public var metricsInterval: Duration?
        /// Where the metrics go (the stalls, counted whenever they are
        /// watched for, and the health): `nil` for the factory bootstrapped
        /// when the watchdog is made (`MetricsSystem.factory`).
        public var metricsFactory: (any MetricsFactory)?

        /// Stalls of `stallThreshold` reported, health recorded every
        /// `metricsInterval` (when given) through `metricsFactory`.
        public init(stallThreshold: Duration? = .milliseconds(500), metricsInterval: Duration? = nil, metricsFactory: (any MetricsFactory)? = nil) {
            self.stallThreshold = stallThreshold
            self.metricsInterval = metricsInterval
            self.metricsFactory = metricsFactory
        }
    }

    private let thread: WatchdogThread

    /// Starts watching `loops`, labelled `labels` (their indices by
    /// default) in reports and in metrics' `loop` dimension, on a new
    /// thread named `rxuv-watchdog`.
    ///
    /// Throws `EINVAL` when the labels do not match the loops, and the
    /// error of `pthread_create`.
    public init(watching loops: [Loop], labels: [String]? = nil, options: Options = Options()) throws(UVError) {
        let labels = labels ?? loops.indices.map { "\($0)" }
        guard labels.count == loops.count else {
            throw UVError(code: .invalidArgument, operation: "LoopWatchdog", address: "\(labels.count) labels for \(loops.count) loops")
        }
        thread = try WatchdogThread(loops: loops, labels: labels, options: options)
    }

    /// The stalls reported so far.
    public var stallCount: Int {
        thread.stallCount.load(ordering: .relaxed)
    }

    /// Stops watching and waits for the watchdog's thread to end; a stall
    /// in progress gets no recovery report. Stopping twice does nothing.
    /// Not from a log handler the watchdog reports to (its own thread).
    public func stop() {
        thread.stop()
    }

    deinit {
        thread.stop()
    }
}

/// The watchdog's thread and what it keeps: the loops, their last
/// samples, their metrics.
// @unchecked Sendable: `watches` is the thread's own; `stopping` is under
// `mutex`; the rest is set before the thread starts.
private final class WatchdogThread: @unchecked Sendable {
    private struct Watch {
        let loop: Loop
        let label: String
        let metrics: LoopMetrics
        /// The last sample, and the one the current metrics window began with.
        var last: LoopSample
        var windowStart: LoopSample
        /// When a sample last showed the loop turning.
        var lastProgress: Int64
        /// Set while a reported stall lasts: when it began.
        var stalledSince: Int64?
        var stalledRunning = LoopActivity.none
    }

    private var watches: [Watch]
    private let threshold: Int64?
    private let metricsInterval: Int64?
    private let period: Int64
    let stallCount = Atomic<Int>(0)
    private let mutex = UnsafeMutablePointer<uv_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<uv_cond_t>.allocate(capacity: 1)
    private var stopping = false
    private var thread = pthread_t()

    init(loops: [Loop], labels: [String], options: LoopWatchdog.Options) throws(UVError) {
        threshold = options.stallThreshold.map { max(Self.nanoseconds($0), 10_000_000) }
        metricsInterval = options.metricsInterval.map { max(Self.nanoseconds($0), 1_000_000) }
        let stallPeriod = threshold.map { min(max($0 / 8, 5_000_000), 250_000_000) }
        period = [stallPeriod, metricsInterval].compactMap { $0 }.min() ?? 1_000_000_000
        let factory = options.metricsFactory ?? MetricsSystem.factory
        if options.metricsInterval != nil {
            for loop in loops { loop.measureUtilization() }
        }
        let now = Loop.monotonicNanoseconds
        watches = zip(loops, labels).map { loop, label in
            let sample = loop.sample()
            return Watch(
                loop: loop, label: label, metrics: LoopMetrics(loop: label, factory: factory, recordsHealth: options.metricsInterval != nil),
                last: sample, windowStart: sample, lastProgress: now)
        }
        uv_mutex_init(mutex)
        uv_cond_init(wake)
        thread = try startSystemThread { [self] in main() }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    /// The thread: a sample every period until stopped.
    private func main() {
        _ = rxuv_set_thread_name("rxuv-watchdog")
        uv_mutex_lock(mutex)
        while !stopping {
            // Woken early only by `stop()` (or spuriously: sampling early is harmless).
            _ = uv_cond_timedwait(wake, mutex, UInt64(period))
            if stopping { break }
            uv_mutex_unlock(mutex)
            sampleAll()
            uv_mutex_lock(mutex)
        }
        uv_mutex_unlock(mutex)
    }

    private func sampleAll() {
        for index in watches.indices {
            let sample = watches[index].loop.sample()
            if let threshold {
                watchForStall(&watches[index], sample, threshold: threshold)
            }
            watches[index].last = sample
            if let metricsInterval, sample.time - watches[index].windowStart.time >= metricsInterval {
                watches[index].metrics.record(LoopHealth(from: watches[index].windowStart, to: sample))
                watches[index].windowStart = sample
            }
        }
    }

    private func watchForStall(_ watch: inout Watch, _ sample: LoopSample, threshold: Int64) {
        if sample.showsProgress(since: watch.last) {
            if let began = watch.stalledSince {
                let length = Duration.nanoseconds(sample.time - began)
                watch.metrics.stallDuration.recordNanoseconds(sample.time - began)
                tell(LoopStall(loop: watch.label, duration: length, running: watch.stalledRunning.description, isOver: true), about: watch.loop)
            }
            watch.stalledSince = nil
            watch.lastProgress = sample.time
        } else if watch.stalledSince == nil, sample.time - watch.lastProgress >= threshold {
            watch.stalledSince = watch.lastProgress
            watch.stalledRunning = sample.activity
            stallCount.add(1, ordering: .relaxed)
            watch.metrics.stalls.increment()
            tell(
                LoopStall(loop: watch.label, duration: .nanoseconds(sample.time - watch.lastProgress), running: sample.activity.description, isOver: false),
                about: watch.loop)
        }
    }

    private func tell(_ stall: LoopStall, about loop: Loop) {
        report(
            stall, ReportContext(loop: loop), level: stall.isOver ? .notice : .warning,
            metadata: ["stall_ms": "\(stall.milliseconds)", "running": "\(stall.running)"])
    }

    /// Stops the thread and joins it: the first call (but from the thread
    /// itself, which cannot join itself).
    func stop() {
        uv_mutex_lock(mutex)
        let first = !stopping
        stopping = true
        uv_cond_signal(wake)
        uv_mutex_unlock(mutex)
        guard first, pthread_equal(pthread_self(), thread) == 0 else { return }
        pthread_join(thread, nil)
    }

    deinit {
        uv_cond_destroy(wake)
        uv_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }
}
