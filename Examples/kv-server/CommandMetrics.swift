import CoreMetrics

/// What one command records through swift-metrics, with the dimension
/// `command`: `kv_commands` (calls that ran), `kv_commands_rejected` (a
/// wrong number of arguments, or not allowed while subscribed),
/// `kv_commands_failed` (ran and replied with an error) and
/// `kv_command_duration` (how long each call ran). `INFO commandstats`
/// reads them back through kv-server's backend (`CommandStats`); any other
/// backend bootstrapped in their place gets them too.
final class CommandMetrics: Sendable {
    let calls: Counter
    let rejected: Counter
    let failed: Counter
    let duration: CoreMetrics.Timer

    /// The metrics of `command`, from the bootstrapped backend.
    init(command: String) {
        let dimensions = [("command", command)]
        calls = Counter(label: "kv_commands", dimensions: dimensions)
        rejected = Counter(label: "kv_commands_rejected", dimensions: dimensions)
        failed = Counter(label: "kv_commands_failed", dimensions: dimensions)
        duration = CoreMetrics.Timer(label: "kv_command_duration", dimensions: dimensions)
    }
}
