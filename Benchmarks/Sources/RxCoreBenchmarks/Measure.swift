import AllocationCounter

/// One measured run: elapsed nanoseconds and heap allocations.
struct Sample {
    var nanoseconds: Double
    var allocations: Int64
}

/// Keeps the optimiser from discarding a value.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Times `body`, which runs the measured part between `start()` and `stop()`
/// calls it makes on the returned stopwatch, so set-up stays outside.
final class Stopwatch {
    private var begin: ContinuousClock.Instant?
    private var allocationsAtStart: Int64 = 0
    private(set) var sample = Sample(nanoseconds: 0, allocations: 0)

    func start() {
        allocationsAtStart = rxuv_allocation_count()
        begin = ContinuousClock.now
    }

    func stop() {
        let end = ContinuousClock.now
        let allocations = rxuv_allocation_count() - allocationsAtStart
        guard let begin else { return }
        let elapsed = end - begin
        let (seconds, attoseconds) = elapsed.components
        sample = Sample(nanoseconds: Double(seconds) * 1e9 + Double(attoseconds) / 1e9, allocations: allocations)
    }
}

/// Runs `body` `repetitions` times and returns the run with the median time.
func median(repetitions: Int, _ body: (Stopwatch) -> Void) -> Sample {
    var samples: [Sample] = []
    for _ in 0..<repetitions {
        let stopwatch = Stopwatch()
        body(stopwatch)
        samples.append(stopwatch.sample)
    }
    samples.sort { $0.nanoseconds < $1.nanoseconds }
    return samples[samples.count / 2]
}
