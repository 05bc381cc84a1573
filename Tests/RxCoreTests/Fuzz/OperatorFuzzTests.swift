import PropertyBased
import RxCore
import RxTest
import Testing

extension CoreFuzz {
    /// Property-based fuzz of the operators on one thread: random chains of one
    /// to three operators (see `FuzzOperator.all`) over four subject sources,
    /// driven by random schedules of subscribe / onNext / onError / onCompleted /
    /// dispose / advance virtual time. Every observer must see
    /// `next* (error | completed)?`, nothing once its dispose has begun and no
    /// overlapping deliveries; after each schedule `Resources.total` must be back
    /// at its value before it.
    ///
    /// CI runs 20,000 schedules; `RXCORE_FUZZ_SCHEDULES=100000` runs more. A
    /// failure prints the shrunk schedule and the `.fixedSeed` that replays it.
    @Suite
    struct OperatorFuzzTests {
        /// One step of a schedule, decoded from three random integers (so the
        /// shrinker can shrink each of them).
        enum Step: CustomStringConvertible {
            case next(source: Int, value: Int)
            case error(source: Int)
            case completed(source: Int)
            case subscribe
            case dispose(observer: Int)
            case advance(ticks: Int)

            init(_ code: (kind: Int, source: Int, value: Int)) {
                switch code.kind {
                case 0..<45: self = .next(source: code.source, value: code.value)
                case 45..<51: self = .error(source: code.source)
                case 51..<58: self = .completed(source: code.source)
                case 58..<68: self = .subscribe
                case 68..<78: self = .dispose(observer: code.value)
                default: self = .advance(ticks: 1 + code.value % 4)
                }
            }

            var description: String {
                switch self {
                case .next(let source, let value): return "s\(source).next(\(value))"
                case .error(let source): return "s\(source).error"
                case .completed(let source): return "s\(source).completed"
                case .subscribe: return "subscribe"
                case .dispose(let observer): return "dispose(o\(observer))"
                case .advance(let ticks): return "advance(\(ticks))"
                }
            }
        }

        static let chains = Gen.int(in: 0...(FuzzOperator.all.count - 1)).array(of: 1...3)
        static let sourceKinds = Gen.int(in: 0...(FuzzSourceKind.allCases.count - 1)).array(of: 4)
        static let schedules = zip(Gen.int(in: 0...99), Gen.int(in: 0...3), Gen.int(in: 0...9)).array(of: 0...40)

        @Test func testFuzz_randomSchedulesOnOneThread() async {
            let count = fuzzScheduleCount(ci: 20_000)
            await propertyCheck(count: count, input: Self.chains, Self.sourceKinds, Self.schedules) { chain, kinds, codes in
                let operators = chain.map { FuzzOperator.all[$0] }
                let steps = codes.map { Step((kind: $0.0, source: $0.1, value: $0.2)) }
                let violations = Self.run(operators: operators, kinds: kinds.map { FuzzSourceKind.allCases[$0] }, steps: steps)
                #expect(violations.isEmpty, "\(operators) on \(kinds) with \(steps): \(violations)")
            }
        }

        /// Every operator on its own, with a fixed schedule that exercises values,
        /// a second subscriber, virtual time, an early dispose and termination of
        /// every source: so each operator is covered even if the random chains
        /// miss it.
        @Test func testFuzz_everyOperatorWithAFixedSchedule() {
            let steps: [Step] = [
                .next(source: 0, value: 1), .next(source: 1, value: 2), .next(source: 2, value: 3), .advance(ticks: 1),
                .subscribe, .next(source: 0, value: 4), .next(source: 0, value: 4), .next(source: 1, value: 5), .advance(ticks: 3),
                .next(source: 0, value: 7), .dispose(observer: 1), .error(source: 0), .next(source: 0, value: 6), .advance(ticks: 2),
                .next(source: 3, value: 8), .completed(source: 1), .completed(source: 2), .subscribe, .next(source: 0, value: 9),
                .advance(ticks: 4), .completed(source: 0), .completed(source: 3),
            ]
            for op in FuzzOperator.all {
                for kinds in [[FuzzSourceKind.publish, .publish, .publish, .publish], [.behavior, .replay, .publish, .behavior]] {
                    let violations = Self.run(operators: [op], kinds: kinds, steps: steps)
                    #expect(violations.isEmpty, "\(op) on \(kinds): \(violations)")
                }
            }
        }

        /// The checks themselves: a broken stream and a leak are seen.
        @Test func testFuzz_theChecksSeeViolations() {
            let afterTerminal = CheckingObserver(index: 0)
            afterTerminal.on(.next(1))
            afterTerminal.on(.completed)
            afterTerminal.on(.next(2))
            #expect(afterTerminal.violations.map(\.message) == ["next(2) after completed"])

            let afterDispose = CheckingObserver(index: 1)
            afterDispose.willDispose()
            afterDispose.on(.next(3))
            #expect(afterDispose.violations.map(\.message) == ["next(3) after dispose"])

            var kept: Disposable?
            withKnownIssue {
                withLeakGate("a disposable kept alive") { kept = Disposables.create {} }
            }
            kept?.dispose()
            kept = nil
            #expect(withLeakGate("nothing") {})
        }

        /// Runs one schedule under the leak gate; returns what the observers saw wrong.
        static func run(operators: [FuzzOperator], kinds: [FuzzSourceKind], steps: [Step]) -> [FuzzViolation] {
            var violations: [FuzzViolation] = []
            withLeakGate("\(operators) with \(steps)") {
                let scheduler = TestScheduler(initialClock: 0)
                let sources = FuzzSources(kinds: kinds)
                let observable = FuzzOperator.chain(operators, sources: sources, scheduler: scheduler)
                var observers: [CheckingObserver] = []
                var subscriptions: [Disposable?] = []

                func subscribe() {
                    let observer = CheckingObserver(index: observers.count)
                    observers.append(observer)
                    subscriptions.append(observable.subscribe(observer))
                }
                func dispose(_ index: Int) {
                    guard let subscription = subscriptions[index] else { return }
                    subscriptions[index] = nil
                    observers[index].willDispose()
                    subscription.dispose()
                }

                subscribe()
                for step in steps {
                    switch step {
                    case .next(let source, let value):
                        sources.send(.next(value), to: source)
                    case .error(let source):
                        sources.send(.error(FuzzError.source(source)), to: source)
                    case .completed(let source):
                        sources.send(.completed, to: source)
                    case .subscribe:
                        subscribe()
                    case .dispose(let observer):
                        dispose(observer % observers.count)
                    case .advance(let ticks):
                        scheduler.advanceTo(scheduler.clock + ticks)
                    }
                }
                // Let the timers fire, then dispose whatever is still subscribed,
                // then run the clock on: nothing may arrive after that.
                scheduler.advanceTo(scheduler.clock + 20)
                for index in observers.indices {
                    dispose(index)
                }
                scheduler.advanceTo(scheduler.clock + 20)
                violations = observers.flatMap(\.violations)
            }
            return violations
        }
    }
}
