import CoreMetrics
import Synchronization

/// statsd-agg's swift-metrics backend: itself. Every swift-metrics counter
/// the process records (statsd-agg's own `statsd.packets_received`,
/// `statsd.metrics_received` and `statsd.bad_lines_seen`) becomes a statsd
/// counter of the next flush, named by its label (and its dimensions,
/// `label.key_value`), as etsy statsd reports its own counts among the
/// others. Other kinds of metric go to no one.
final class SelfMetrics: MetricsFactory {
    private let pending = Mutex<[String: Double]>([:])

    /// The counts recorded since the last call, by counter name.
    func take() -> [String: Double] {
        pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
    }

    fileprivate func add(_ amount: Int64, to name: String) {
        pending.withLock { $0[name, default: 0] += Double(amount) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let name = ([label] + dimensions.map { "\($0.0)_\($0.1)" }).joined(separator: ".")
        return SelfCounter(name: name, metrics: self)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        NOOPMetricsHandler.instance
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// A counter that adds to the next flush.
private final class SelfCounter: CounterHandler {
    private let name: String
    private let metrics: SelfMetrics

    init(name: String, metrics: SelfMetrics) {
        self.name = name
        self.metrics = metrics
    }

    func increment(by amount: Int64) {
        metrics.add(amount, to: name)
    }

    func reset() {}
}
