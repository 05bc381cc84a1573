import Foundation
import PropertyBased
import RxCore
import Synchronization
import Testing

extension CoreFuzz {
    /// Property-based fuzz of the operators across threads: a random chain of
    /// one or two operators that need no scheduler (`FuzzOperator.synchronous`)
    /// over three `PublishSubject` sources, each fed by its own thread at once
    /// (random values, sometimes an error or a completion), while the test's
    /// thread disposes the first of two observers at a random moment.
    ///
    /// Checked on every observer: `next* (error | completed)?`, no overlapping
    /// deliveries (multi-source operators serialise), and no event from an
    /// emission that began after dispose returned; then `Resources.total` back
    /// at its value before the schedule.
    ///
    /// CI runs 1,500 schedules; `RXCORE_FUZZ_SCHEDULES` runs more (the count is
    /// divided by 5, as each schedule here costs about five single-threaded ones).
    @Suite
    struct ConcurrentFuzzTests {
        static let feederCount = 3

        static let chains = Gen.int(in: 0...(FuzzOperator.synchronous.count - 1)).array(of: 1...2)
        /// Per feeder: its values, then 0/1 nothing, 2 completed, 3 error.
        static let feeds = zip(Gen.int(in: 0...9).array(of: 1...80), Gen.int(in: 0...3)).array(of: feederCount)
        /// How many emissions the test's thread lets pass before it disposes the first observer.
        static let disposeAfter = Gen.int(in: 0...150)

        @Test func testFuzz_sourcesFedFromSeveralThreads() async {
            let count = max(1, fuzzScheduleCount(ci: 7_500) / 5)
            await propertyCheck(count: count, input: Self.chains, Self.feeds, Self.disposeAfter) { chain, feeds, disposeAfter in
                let operators = chain.map { FuzzOperator.synchronous[$0] }
                let violations = Self.run(operators: operators, feeds: feeds.map { (values: $0.0, end: $0.1) }, disposeAfter: disposeAfter)
                #expect(violations.isEmpty, "\(operators) fed \(feeds), dispose after \(disposeAfter): \(violations)")
            }
        }

        /// Runs one schedule under the leak gate; returns what the observers saw wrong.
        static func run(operators: [FuzzOperator], feeds: [(values: [Int], end: Int)], disposeAfter: Int) -> [FuzzViolation] {
            var violations: [FuzzViolation] = []
            withLeakGate("\(operators) fed from \(feederCount) threads") {
                nonisolated(unsafe) let sources = FuzzSources(kinds: Array(repeating: .publish, count: feederCount))
                let progress = FeederProgress(feeders: feederCount)
                let observable = FuzzOperator.chain(operators, sources: sources, scheduler: nil)
                let observers = (0..<2).map { CheckingObserver(index: $0, lateness: progress.lateness) }
                let subscriptions = observers.map { observable.subscribe($0) }

                let ready = Atomic<Int>(0)
                let group = DispatchGroup()
                for (feeder, feed) in feeds.enumerated() {
                    group.enter()
                    let thread = Thread {
                        ready.add(1, ordering: .relaxed)
                        while ready.load(ordering: .relaxed) < feederCount + 1 { sched_yield() }
                        for value in feed.values {
                            progress.begin(feeder)
                            sources.send(.next(value), to: feeder)
                            progress.end(feeder)
                        }
                        if feed.end >= 2 {
                            progress.begin(feeder)
                            sources.send(feed.end == 2 ? .completed : .error(FuzzError.source(feeder)), to: feeder)
                            progress.end(feeder)
                        }
                        group.leave()
                    }
                    thread.start()
                }
                ready.add(1, ordering: .relaxed)
                while ready.load(ordering: .relaxed) < feederCount + 1 { sched_yield() }
                // Dispose the first observer while the feeders run.
                let emissions = feeds.reduce(0) { $0 + $1.values.count }
                while progress.total < min(disposeAfter, emissions) { sched_yield() }
                observers[0].willDispose()
                subscriptions[0].dispose()
                observers[0].didDispose()
                group.wait()
                observers[1].willDispose()
                subscriptions[1].dispose()
                observers[1].didDispose()
                violations = observers.flatMap(\.violations)
            }
            return violations
        }
    }
}

/// How far each feeder thread is: emissions begun and finished. A delivery
/// is late when every emission that had begun by the time dispose returned
/// has finished: it then belongs to one that began afterwards.
final class FeederProgress: @unchecked Sendable {
    private let counts: Mutex<(begun: [Int], finished: [Int])>
    private let finishedTotal = Atomic<Int>(0)

    init(feeders: Int) {
        counts = Mutex((Array(repeating: 0, count: feeders), Array(repeating: 0, count: feeders)))
    }

    func begin(_ feeder: Int) {
        counts.withLock { $0.begun[feeder] += 1 }
    }

    func end(_ feeder: Int) {
        counts.withLock { $0.finished[feeder] += 1 }
        finishedTotal.add(1, ordering: .relaxed)
    }

    /// Emissions finished so far, all feeders together.
    var total: Int { finishedTotal.load(ordering: .relaxed) }

    /// Called when dispose returned: the check for later deliveries.
    func lateness() -> () -> Bool {
        let begun = counts.withLock { $0.begun }
        return { [self] in
            counts.withLock { counts in
                zip(counts.finished, begun).allSatisfy { $0 >= $1 }
            }
        }
    }
}
