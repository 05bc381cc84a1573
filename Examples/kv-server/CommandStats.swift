import CoreMetrics
import ExampleSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// kv-server's own swift-metrics backend: what `INFO commandstats` reports,
/// as Redis does, read from the metrics each command records
/// (`CommandMetrics`). It keeps the counters and timers labelled
/// `kv_commands`, `kv_commands_rejected`, `kv_commands_failed` and
/// `kv_command_duration`, by their `command` dimension; every other metric
/// (the `Server`'s `rxuv_server_*`) goes to no one.
final class CommandStats: MetricsFactory {
    /// One command's totals.
    final class Totals: Sendable {
        let calls = Atomic<Int64>(0)
        let rejected = Atomic<Int64>(0)
        let failed = Atomic<Int64>(0)
        let nanoseconds = Atomic<Int64>(0)
    }

    private let totals = Mutex<[String: Totals]>([:])

    /// The totals of `command`, made on first use.
    private func totals(of dimensions: [(String, String)]) -> Totals? {
        guard let command = dimensions.first(where: { $0.0 == "command" })?.1 else { return nil }
        return totals.withLock { all in
            if let existing = all[command] { return existing }
            let made = Totals()
            all[command] = made
            return made
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let totals = totals(of: dimensions) else { return NOOPMetricsHandler.instance }
        switch label {
        case "kv_commands": return TotalCounter(totals, .calls)
        case "kv_commands_rejected": return TotalCounter(totals, .rejected)
        case "kv_commands_failed": return TotalCounter(totals, .failed)
        default: return NOOPMetricsHandler.instance
        }
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard label == "kv_command_duration", let totals = totals(of: dimensions) else { return NOOPMetricsHandler.instance }
        return TotalTimer(totals)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        NOOPMetricsHandler.instance
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        NOOPMetricsHandler.instance
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    /// `INFO commandstats`: one line per command called (or rejected), in
    /// Redis's format, sorted by name.
    var section: String {
        let all = totals.withLock { $0 }
        var lines = ["# Commandstats"]
        for (name, totals) in all.sorted(by: { $0.key < $1.key }) {
            let calls = totals.calls.load(ordering: .relaxed)
            let rejected = totals.rejected.load(ordering: .relaxed)
            let failed = totals.failed.load(ordering: .relaxed)
            guard calls + rejected + failed > 0 else { continue }
            let microseconds = totals.nanoseconds.load(ordering: .relaxed) / 1000
            let perCall = calls == 0 ? 0 : Double(microseconds) / Double(calls)
            lines.append(
                "cmdstat_\(name):calls=\(calls),usec=\(microseconds),usec_per_call=\(Console.fixed(perCall, 2)),rejected_calls=\(rejected),failed_calls=\(failed)"
            )
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

/// A counter that adds to one of a command's totals.
private final class TotalCounter: CounterHandler {
    enum Field {
        case calls, rejected, failed
    }

    private let totals: CommandStats.Totals
    private let field: Field

    init(_ totals: CommandStats.Totals, _ field: Field) {
        self.totals = totals
        self.field = field
    }

    func increment(by amount: Int64) {
        switch field {
        case .calls: totals.calls.add(amount, ordering: .relaxed)
        case .rejected: totals.rejected.add(amount, ordering: .relaxed)
        case .failed: totals.failed.add(amount, ordering: .relaxed)
        }
    }

    func reset() {}
}

/// A timer that adds each duration to a command's total time.
private final class TotalTimer: TimerHandler {
    private let totals: CommandStats.Totals

    init(_ totals: CommandStats.Totals) {
        self.totals = totals
    }

    func recordNanoseconds(_ duration: Int64) {
        totals.nanoseconds.add(duration, ordering: .relaxed)
    }
}
