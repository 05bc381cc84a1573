import RxUV

/// One aggregated value of a flush, named as etsy statsd's Graphite backend
/// names it (`stats.counters.requests.count`).
struct Stat: Equatable {
    let name: String
    let value: Double
}

/// What statsd keeps between flushes, and the flush itself.
///
/// Semantics are etsy statsd's: a counter adds `value / rate` and reports
/// its total and per-second rate, then resets to 0 (and is reported as 0
/// until the daemon stops); a gauge keeps its value across flushes and a
/// signed value changes it; a timer (`ms`, `h`) reports count (scaled by
/// the sample rate), mean, median, lower, upper, sum, std and, per
/// percentile, `mean_90`, `upper_90`... over the flush interval, then
/// clears; a set reports how many distinct members it saw, then clears.
struct Aggregates {
    /// statsd's own counters, named as statsd names them: recorded through
    /// swift-metrics (`SelfMetrics`), taken in with `count(_:)`, reported
    /// from the first flush on.
    static let badLines = "statsd.bad_lines_seen"
    static let packetsReceived = "statsd.packets_received"
    static let metricsReceived = "statsd.metrics_received"

    private(set) var counters: [String: Double] = [badLines: 0, packetsReceived: 0, metricsReceived: 0]
    private(set) var gauges: [String: Double] = [:]
    private var timers: [String: [Double]] = [:]
    private var timerCounts: [String: Double] = [:]
    private var sets: [String: Set<String>] = [:]
    /// Since the start, for the summary at the end.
    private(set) var totals = (packets: 0, metrics: 0, badLines: 0, dropped: 0)
    /// Samples dropped in this interval because their name was new and
    /// `maxNames` were kept already (read and reset by `takeDropped()`).
    private var droppedInInterval = 0

    /// The percentiles timers report (`90` gives `upper_90`; `-10` gives
    /// `lower_top10`, the mean of the lowest 10 %...).
    let percentiles: [Double]
    /// The most names kept, over every kind. Counters and gauges keep
    /// their names until the daemon stops (statsd's default), so a flood of
    /// distinct names would otherwise grow memory without end: past this,
    /// a sample with a new name is dropped and counted.
    let maxNames: Int

    init(percentiles: [Double], maxNames: Int = 100_000) {
        self.percentiles = percentiles
        self.maxNames = maxNames
    }

    /// The names kept now, over every kind (statsd's `numStats`).
    var nameCount: Int {
        counters.count + timers.count + gauges.count + sets.count
    }

    /// The samples dropped since the last call (new names past `maxNames`).
    mutating func takeDropped() -> Int {
        defer { droppedInInterval = 0 }
        return droppedInInterval
    }

    /// Takes in one datagram; returns how many lines it held and how many
    /// of them were bad.
    mutating func receive(_ datagram: ByteBuffer) -> (lines: Int, badLines: Int) {
        var badLines = 0
        let lines = StatsdParser.parse(datagram, sample: { add($0) }, badLine: { badLines += 1 })
        totals.packets += 1
        totals.metrics += lines
        totals.badLines += badLines
        return (lines, badLines)
    }

    /// Adds counts recorded elsewhere (statsd's own, through swift-metrics)
    /// to this interval's counters.
    mutating func count(_ recorded: [String: Double]) {
        for (name, value) in recorded {
            counters[name, default: 0] += value
        }
    }

    /// Adds one good sample, unless its name is new and `maxNames` are
    /// kept already.
    mutating func add(_ sample: StatsdSample) {
        if nameCount >= maxNames, !isKept(sample) {
            droppedInInterval += 1
            totals.dropped += 1
            return
        }
        switch sample.kind {
        case .counter:
            counters[sample.name, default: 0] += sample.value / sample.rate
        case .gauge(let isDelta):
            if isDelta {
                gauges[sample.name, default: 0] += sample.value
            } else {
                gauges[sample.name] = sample.value
            }
        case .timer:
            timers[sample.name, default: []].append(sample.value)
            timerCounts[sample.name, default: 0] += 1 / sample.rate
        case .set(let member):
            sets[sample.name, default: []].insert(member)
        }
    }

    /// Whether the sample's name is kept already, for its kind.
    private func isKept(_ sample: StatsdSample) -> Bool {
        switch sample.kind {
        case .counter: counters[sample.name] != nil
        case .gauge: gauges[sample.name] != nil
        case .timer: timers[sample.name] != nil
        case .set: sets[sample.name] != nil
        }
    }

    /// The stats of the interval that ends now, `interval` seconds long, in
    /// a stable order (by kind, then name); then resets as statsd does.
    mutating func flush(interval: Double) -> [Stat] {
        var stats: [Stat] = []
        for (name, value) in counters.sorted(by: { $0.key < $1.key }) {
            stats.append(Stat(name: "stats.counters.\(name).rate", value: value / interval))
            stats.append(Stat(name: "stats.counters.\(name).count", value: value))
        }
        for (name, values) in timers.sorted(by: { $0.key < $1.key }) {
            let count = timerCounts[name] ?? 0
            for (key, value) in Self.timerStats(values.sorted(), count: count, interval: interval, percentiles: percentiles) {
                stats.append(Stat(name: "stats.timers.\(name).\(key)", value: value))
            }
        }
        for (name, value) in gauges.sorted(by: { $0.key < $1.key }) {
            stats.append(Stat(name: "stats.gauges.\(name)", value: value))
        }
        for (name, members) in sets.sorted(by: { $0.key < $1.key }) {
            stats.append(Stat(name: "stats.sets.\(name).count", value: Double(members.count)))
        }
        stats.append(Stat(name: "stats.statsd.numStats", value: Double(nameCount)))

        for name in counters.keys { counters[name] = 0 }
        for name in timers.keys { timers[name] = [] }
        for name in timerCounts.keys { timerCounts[name] = 0 }
        for name in sets.keys { sets[name] = [] }
        return stats
    }

    /// statsd's `process_metrics` for one timer: `values` sorted, `count`
    /// the sample-rate-scaled number of timings.
    static func timerStats(_ values: [Double], count scaledCount: Double, interval: Double, percentiles: [Double]) -> [(String, Double)] {
        guard !values.isEmpty else {
            return [("count", 0), ("count_ps", 0)]
        }
        var stats: [(String, Double)] = []
        let count = values.count
        var cumulative: [Double] = []
        var cumulativeSquares: [Double] = []
        cumulative.reserveCapacity(count)
        cumulativeSquares.reserveCapacity(count)
        for value in values {
            cumulative.append((cumulative.last ?? 0) + value)
            cumulativeSquares.append((cumulativeSquares.last ?? 0) + value * value)
        }
        for pct in percentiles {
            var inThreshold = count
            var boundary = values[count - 1]
            var sum = values[0]
            var sumSquares = values[0] * values[0]
            var mean = values[0]
            if count > 1 {
                // JavaScript's Math.round: halves go up.
                inThreshold = Int((abs(pct) / 100 * Double(count) + 0.5).rounded(.down))
                if inThreshold == 0 { continue }
                if pct > 0 {
                    boundary = values[inThreshold - 1]
                    sum = cumulative[inThreshold - 1]
                    sumSquares = cumulativeSquares[inThreshold - 1]
                } else {
                    boundary = values[count - inThreshold]
                    let before = count - inThreshold - 1
                    sum = cumulative[count - 1] - (before >= 0 ? cumulative[before] : 0)
                    sumSquares = cumulativeSquares[count - 1] - (before >= 0 ? cumulativeSquares[before] : 0)
                }
                mean = sum / Double(inThreshold)
            }
            let suffix = percentileSuffix(pct)
            stats.append(("count_\(suffix)", Double(inThreshold)))
            stats.append(("mean_\(suffix)", mean))
            stats.append(((pct > 0 ? "upper_" : "lower_") + suffix, boundary))
            stats.append(("sum_\(suffix)", sum))
            stats.append(("sum_squares_\(suffix)", sumSquares))
        }
        let sum = cumulative[count - 1]
        let mean = sum / Double(count)
        let squaredDifferences = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let middle = count / 2
        let median = count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
        stats.append(("std", (squaredDifferences / Double(count)).squareRoot()))
        stats.append(("upper", values[count - 1]))
        stats.append(("lower", values[0]))
        stats.append(("count", scaledCount))
        stats.append(("count_ps", scaledCount / interval))
        stats.append(("sum", sum))
        stats.append(("sum_squares", cumulativeSquares[count - 1]))
        stats.append(("mean", mean))
        stats.append(("median", median))
        return stats
    }

    /// `90` → `90`, `99.9` → `99_9`, `-10` → `top10`, as statsd cleans them.
    static func percentileSuffix(_ pct: Double) -> String {
        formatNumber(pct).replacingFirst(".", with: "_").replacingFirst("-", with: "top")
    }
}

/// A number as JavaScript prints it, near enough: integers without a
/// fraction (`3`, not `3.0`), others in the shortest form that reads back
/// the same (`0.1`, `3.3333333333333335`).
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
        return String(Int64(value))
    }
    return "\(value)"
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}

/// The Graphite plaintext protocol: `name value timestamp`, one a line.
func graphiteText(_ stats: [Stat], timestamp: Int) -> String {
    var text = ""
    for stat in stats {
        text += "\(stat.name) \(formatNumber(stat.value)) \(timestamp)\n"
    }
    return text
}

/// One JSON object a flush: `{"timestamp":…,"metrics":{"stats.counters.x.count":3,…}}`.
func jsonLine(_ stats: [Stat], timestamp: Int) -> String {
    var text = "{\"timestamp\":\(timestamp),\"metrics\":{"
    for (index, stat) in stats.enumerated() {
        // Names are sanitized to letters, digits, `_`, `-` and `.`: nothing to escape.
        text += "\(index == 0 ? "" : ",")\"\(stat.name)\":\(formatNumber(stat.value))"
    }
    return text + "}}"
}
