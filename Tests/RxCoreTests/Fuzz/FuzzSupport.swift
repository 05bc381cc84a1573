import Foundation
import RxCore
import RxCoreTestSupport
import RxTest
import Synchronization
import Testing

// Support for the property-based fuzz of the core (OperatorFuzzTests,
// ConcurrentFuzzTests): the sources a schedule drives, the operators a chain
// is built from, an observer that checks the grammar, and the leak gate for
// Swift Testing suites (which cannot subclass RxCoreTestCase).

/// The fuzz suites, nested here so they run one after another: their leak
/// gate reads the process-wide `Resources.total`, which a suite running
/// beside them would change. (`.serialized` applies to nested suites too.)
@Suite(.serialized)
enum CoreFuzz {}

/// How many schedules a fuzz test runs: `ci` by default (bounded for CI),
/// or `RXCORE_FUZZ_SCHEDULES` for a longer manual run.
func fuzzScheduleCount(ci: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["RXCORE_FUZZ_SCHEDULES"], let count = Int(text), count > 0 {
        return count
    }
    return ci
}

/// The error a source fails with: which source, so a message says where it came from.
enum FuzzError: Error, Equatable {
    case source(Int)
    case closure(Int)
}

// MARK: - Leak gate

/// The leak gate of the fuzz suites, one call per schedule: runs `body`, then
/// records an issue (debug builds) if `Resources.total` is not back at its
/// value before `body`, waiting up to one second for objects released by
/// other threads. The same gate as `RxCoreTestCase.assertNoLeaks()`, for
/// Swift Testing; `scripts/check-test-bases.sh` requires every Swift Testing
/// file under Tests/RxCoreTests to use it.
///
/// Returns `false` when it recorded a leak.
@discardableResult
func withLeakGate(_ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) -> Bool {
    let before = LiveObjectCount.now
    body()
    guard let report = before.leakReport(since: "before") else { return true }
    Issue.record("RxCore objects leaked in \(context()): \(report)", sourceLocation: sourceLocation)
    return false
}

// MARK: - Sources

/// The kind of subject behind a source.
enum FuzzSourceKind: CaseIterable {
    case publish
    case behavior
    case replay
}

/// The sources a schedule drives: subjects that a step sends an event to.
/// Each source is subscribed through `deferred`, and a terminal event
/// replaces its subject by a fresh one before it is sent, so operators that
/// subscribe again (retry, catch, concat, repeated inners) find a live
/// source. Thread-safe: the concurrent fuzz feeds them from several threads.
final class FuzzSources {
    let kinds: [FuzzSourceKind]
    private let subjects: Mutex<[Observable<Int>]>
    private let observers: Mutex<[AnyObserver<Int>]>

    init(kinds: [FuzzSourceKind]) {
        self.kinds = kinds
        var subjects: [Observable<Int>] = []
        var observers: [AnyObserver<Int>] = []
        for kind in kinds {
            let (observable, observer) = FuzzSources.makeSubject(kind)
            subjects.append(observable)
            observers.append(observer)
        }
        self.subjects = Mutex(subjects)
        self.observers = Mutex(observers)
    }

    private static func makeSubject(_ kind: FuzzSourceKind) -> (Observable<Int>, AnyObserver<Int>) {
        switch kind {
        case .publish:
            let subject = PublishSubject<Int>()
            return (subject.asObservable(), subject.asObserver())
        case .behavior:
            let subject = BehaviorSubject<Int>(value: 0)
            return (subject.asObservable(), subject.asObserver())
        case .replay:
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            return (subject.asObservable(), subject.asObserver())
        }
    }

    var count: Int { kinds.count }

    /// Source `index` (modulo the count; values can be negative), as an operator subscribes to it.
    func source(_ index: Int) -> Observable<Int> {
        let index = (index % kinds.count + kinds.count) % kinds.count
        return Observable.deferred { [unowned self] in
            self.subjects.withLock { $0[index] }
        }
    }

    /// Sends `event` to source `index`; a terminal event first puts a fresh subject in its place.
    func send(_ event: Event<Int>, to index: Int) {
        let index = (index % kinds.count + kinds.count) % kinds.count
        let observer: AnyObserver<Int>
        switch event {
        case .next:
            observer = observers.withLock { $0[index] }
        case .error, .completed:
            let (observable, fresh) = FuzzSources.makeSubject(kinds[index])
            observer = observers.withLock { observers in
                let old = observers[index]
                observers[index] = fresh
                return old
            }
            // Only this lock touches the sources; the Observable itself is not Sendable.
            let newSource = UncheckedSendable(observable)
            subjects.withLock { $0[index] = newSource.value }
        }
        observer.on(event)
    }
}

// MARK: - Operators

/// One operator of a fuzzed chain: it transforms the chain so far, and may
/// take other sources as second inputs (merge, zip, flatMap's inners, ...).
struct FuzzOperator: CustomStringConvertible, Sendable {
    let name: String
    let apply: @Sendable (Observable<Int>, FuzzSources, TestScheduler?) -> Observable<Int>

    var description: String { name }

    init(_ name: String, _ apply: @escaping @Sendable (Observable<Int>, FuzzSources, TestScheduler?) -> Observable<Int>) {
        self.name = name
        self.apply = apply
    }

    /// Builds `source(0)` followed by `operators`.
    static func chain(_ operators: [FuzzOperator], sources: FuzzSources, scheduler: TestScheduler?) -> Observable<Int> {
        operators.reduce(sources.source(0)) { chain, op in op.apply(chain, sources, scheduler) }
    }

    /// Operators that need no scheduler: safe to drive from several threads.
    static let synchronous: [FuzzOperator] = [
        FuzzOperator("map") { o, _, _ in o.map { $0 &* 3 } },
        FuzzOperator("map(throws on 7)") { o, _, _ in
            o.map { v in
                if v == 7 { throw FuzzError.closure(v) }
                return v
            }
        },
        FuzzOperator("filter") { o, _, _ in o.filter { $0 % 2 == 0 } },
        FuzzOperator("compactMap") { o, _, _ in o.compactMap { $0 % 3 == 0 ? nil : $0 } },
        FuzzOperator("scan") { o, _, _ in o.scan(0) { $0 &+ $1 } },
        FuzzOperator("reduce") { o, _, _ in o.reduce(0) { $0 &+ $1 } },
        FuzzOperator("take(2)") { o, _, _ in o.take(2) },
        FuzzOperator("take(0)") { o, _, _ in o.take(0) },
        FuzzOperator("takeLast(2)") { o, _, _ in o.takeLast(2) },
        FuzzOperator("take(while:)") { o, _, _ in o.take(while: { $0 != 5 }) },
        FuzzOperator("take(until: predicate, inclusive)") { o, _, _ in o.take(until: { $0 == 4 }, behavior: .inclusive) },
        FuzzOperator("skip(2)") { o, _, _ in o.skip(2) },
        FuzzOperator("skip(while:)") { o, _, _ in o.skip(while: { $0 < 5 }) },
        FuzzOperator("element(at: 1)") { o, _, _ in o.element(at: 1) },
        FuzzOperator("distinctUntilChanged") { o, _, _ in o.distinctUntilChanged() },
        FuzzOperator("enumerated") { o, _, _ in o.enumerated().map { $0.index &+ $0.element } },
        FuzzOperator("startWith") { o, _, _ in o.startWith(-1, -2) },
        FuzzOperator("ifEmpty(default:)") { o, _, _ in o.ifEmpty(default: -3) },
        FuzzOperator("ifEmpty(switchTo: s1)") { o, s, _ in o.ifEmpty(switchTo: s.source(1)) },
        FuzzOperator("materialize/dematerialize") { o, _, _ in o.materialize().dematerialize() },
        FuzzOperator("do") { o, _, _ in o.do(onNext: { _ in }, onError: { _ in }, onCompleted: {}, onSubscribe: {}, onDispose: {}) },
        FuzzOperator("merge(s1, s2)") { o, s, _ in Observable.merge(o, s.source(1), s.source(2)) },
        FuzzOperator("concat(s1)") { o, s, _ in o.concat(s.source(1)) },
        FuzzOperator("flatMap") { o, s, _ in o.flatMap { v in s.source(1 + v % 3).take(3) } },
        FuzzOperator("flatMapLatest") { o, s, _ in o.flatMapLatest { v in s.source(1 + v % 3) } },
        FuzzOperator("flatMapFirst") { o, s, _ in o.flatMapFirst { v in s.source(1 + v % 3) } },
        FuzzOperator("concatMap") { o, s, _ in o.concatMap { v in s.source(1 + v % 3).take(2) } },
        FuzzOperator("switchLatest") { o, s, _ in o.map { v in s.source(1 + v % 3) }.switchLatest() },
        FuzzOperator("merge(maxConcurrent: 2)") { o, s, _ in o.map { v in s.source(1 + v % 3).take(2) }.merge(maxConcurrent: 2) },
        FuzzOperator("groupBy.flatMap") { o, _, _ in o.groupBy { $0 % 2 }.flatMap { $0.take(3) } },
        FuzzOperator("combineLatest(s1)") { o, s, _ in Observable.combineLatest(o, s.source(1)) { $0 &+ $1 } },
        FuzzOperator("combineLatest(s1, s2)") { o, s, _ in Observable.combineLatest(o, s.source(1), s.source(2)) { $0 &+ $1 &+ $2 } },
        FuzzOperator("combineLatest([s1, s2])") { o, s, _ in Observable.combineLatest([o, s.source(1), s.source(2)]).map { $0.reduce(0, &+) } },
        FuzzOperator("zip(s1)") { o, s, _ in Observable.zip(o, s.source(1)) { $0 &+ $1 } },
        FuzzOperator("zip(s1, s2)") { o, s, _ in Observable.zip(o, s.source(1), s.source(2)) { $0 &+ $1 &+ $2 } },
        FuzzOperator("zip([s1, s2])") { o, s, _ in Observable.zip([o, s.source(1), s.source(2)]).map { $0.reduce(0, &+) } },
        FuzzOperator("withLatestFrom(s1)") { o, s, _ in o.withLatestFrom(s.source(1)) { $0 &+ $1 } },
        FuzzOperator("take(until: s1)") { o, s, _ in o.take(until: s.source(1)) },
        FuzzOperator("skip(until: s1)") { o, s, _ in o.skip(until: s.source(1)) },
        FuzzOperator("sample(s1)") { o, s, _ in o.sample(s.source(1)) },
        FuzzOperator("amb(s1)") { o, s, _ in o.amb(s.source(1)) },
        FuzzOperator("catch -> s1") { o, s, _ in o.catch { _ in s.source(1) } },
        FuzzOperator("catchAndReturn") { o, _, _ in o.catchAndReturn(-4) },
        FuzzOperator("retry(3)") { o, _, _ in o.retry(3) },
        FuzzOperator("retry(when:) 2") { o, _, _ in o.retry(when: { (errors: Observable<Swift.Error>) in errors.take(2) }) },
        FuzzOperator("share()") { o, _, _ in o.share() },
        FuzzOperator("share(replay: 1)") { o, _, _ in o.share(replay: 1) },
        FuzzOperator("share(replay: 2, scope: .forever)") { o, _, _ in o.share(replay: 2, scope: .forever) },
        FuzzOperator("publish.refCount") { o, _, _ in o.publish().refCount() },
        FuzzOperator("replay(1).refCount") { o, _, _ in o.replay(1).refCount() },
    ]

    /// Operators that run on a virtual-time scheduler.
    static let timed: [FuzzOperator] = [
        FuzzOperator("buffer(3 ticks, 2)") { o, _, s in o.buffer(timeSpan: .seconds(3), count: 2, scheduler: s!).map { $0.reduce(0, &+) } },
        FuzzOperator("window(3 ticks, 2).flatMap") { o, _, s in o.window(timeSpan: .seconds(3), count: 2, scheduler: s!).flatMap { $0 } },
        FuzzOperator("debounce(2)") { o, _, s in o.debounce(.seconds(2), scheduler: s!) },
        FuzzOperator("throttle(2)") { o, _, s in o.throttle(.seconds(2), scheduler: s!) },
        FuzzOperator("throttle(2, latest: false)") { o, _, s in o.throttle(.seconds(2), latest: false, scheduler: s!) },
        FuzzOperator("delay(2)") { o, _, s in o.delay(.seconds(2), scheduler: s!) },
        FuzzOperator("delaySubscription(1)") { o, _, s in o.delaySubscription(.seconds(1), scheduler: s!) },
        FuzzOperator("timeout(5)") { o, _, s in o.timeout(.seconds(5), scheduler: s!) },
        FuzzOperator("timeout(4, other: s1)") { o, src, s in o.timeout(.seconds(4), other: src.source(1), scheduler: s!) },
        FuzzOperator("take(for: 6)") { o, _, s in o.take(for: .seconds(6), scheduler: s!) },
        FuzzOperator("skip(for: 2)") { o, _, s in o.skip(for: .seconds(2), scheduler: s!) },
        FuzzOperator("observe(on:)") { o, _, s in o.observe(on: s!) },
    ]

    static let all = synchronous + timed
}

// MARK: - The checking observer

/// What went wrong on one observer.
struct FuzzViolation: CustomStringConvertible {
    let observer: Int
    let message: String
    var description: String { "observer \(observer): \(message)" }
}

/// An observer that checks what it receives: the grammar
/// `next* (error | completed)?`, no overlapping deliveries (events are
/// serialised, never interleaved), and nothing after dispose.
///
/// "After dispose" depends on the run. On one thread (`lateness == nil`) no
/// event may arrive once its subscription's dispose has begun. With several
/// threads an emission already under way when dispose returned may still
/// deliver (as in RxSwift); `lateness` is then called when dispose returned
/// and gives the check that says whether a later delivery comes from an
/// emission that began after that (a violation).
final class CheckingObserver: ObserverType, @unchecked Sendable {
    typealias Element = Int

    let index: Int
    private let delivering = Atomic<Bool>(false)
    private let state = Mutex(State())
    private let lateness: (() -> () -> Bool)?

    struct State {
        var nexts = 0
        var terminal: String?
        var disposing = false
        var isLate: (() -> Bool)?
        var violations: [String] = []
    }

    init(index: Int, lateness: (() -> () -> Bool)? = nil) {
        self.index = index
        self.lateness = lateness
    }

    func on(_ event: Event<Int>) {
        if delivering.exchange(true, ordering: .acquiringAndReleasing) {
            record("\(describe(event)) delivered while another delivery was under way")
        }
        let singleThreaded = lateness == nil
        state.withLock { state in
            if let terminal = state.terminal {
                state.violations.append("\(describe(event)) after \(terminal)")
            }
            if state.disposing && singleThreaded {
                state.violations.append("\(describe(event)) after dispose")
            } else if let isLate = state.isLate, isLate() {
                state.violations.append("\(describe(event)) from an emission that began after dispose returned")
            }
            switch event {
            case .next:
                state.nexts += 1
            case .error, .completed:
                if state.terminal == nil { state.terminal = describe(event) }
            }
        }
        delivering.store(false, ordering: .releasing)
    }

    /// Call before disposing this observer's subscription.
    func willDispose() {
        state.withLock { $0.disposing = true }
    }

    /// Call when the dispose returned.
    func didDispose() {
        guard let lateness else { return }
        // A closure the checker's own thread calls later.
        let isLate = UncheckedSendable(lateness())
        state.withLock { $0.isLate = isLate.value }
    }

    private func record(_ message: String) {
        state.withLock { $0.violations.append(message) }
    }

    var violations: [FuzzViolation] {
        state.withLock { $0.violations.map { FuzzViolation(observer: index, message: $0) } }
    }

    var isTerminated: Bool { state.withLock { $0.terminal != nil } }
    var nextCount: Int { state.withLock { $0.nexts } }

    private func describe(_ event: Event<Int>) -> String {
        switch event {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}
