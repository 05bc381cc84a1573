import Foundation
@_spi(Bridge) import RxCore
import RxCoreTestSupport
import RxTest
import Synchronization
import XCTest

final class SingleFlatMapTests: RxCoreTestCase {
    func testFlatMap_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, "a"), .completed(20)])
        let res = scheduler.start { xs.asSingle().flatMap { value in ys.asSingle().map { "\($0)\(value)" } } }
        XCTAssertEqual(res.events, [.next(230, "a1"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMap_SourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        var called = false
        let res = scheduler.start {
            xs.asSingle().flatMap { value -> Single<Int> in
                called = true
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertFalse(called)
    }

    func testFlatMap_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(5, testError)])
        let res = scheduler.start { xs.asSingle().flatMap { _ in ys.asSingle() } }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])
    }

    func testFlatMap_SelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().flatMap { _ -> Single<Int> in throw testError } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testFlatMap_DisposeWhileInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asSingle().flatMap { _ in ys.asSingle() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapMaybe_SuccessAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.completed(5)])
        let res = scheduler.start { xs.asSingle().flatMapMaybe { _ in ys.asMaybe() } }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])

        var values: [Int] = []
        _ = Single.just(2).flatMapMaybe { Maybe.just($0 * 10) }.subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [20])
    }

    func testFlatMapMaybe_ErrorAndThrow() {
        var errors: [TestError] = []
        _ = Single<Int>.error(testError1).flatMapMaybe { Maybe.just($0) }
            .subscribe(onError: { errors.append($0 as! TestError) })
        _ = Single.just(1).flatMapMaybe { _ -> Maybe<Int> in throw testError2 }
            .subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }

    func testFlatMapMaybe_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 240) { xs.asSingle().flatMapMaybe { _ in ys.asMaybe() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    func testFlatMapCompletable_Completes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        var received: Int?
        let res = scheduler.start {
            xs.asSingle().flatMapCompletable { value in
                received = value
                return ys.asCompletable()
            }
        }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(received, 1)
    }

    func testFlatMapCompletable_InnerErrorAndThrow() {
        var errors: [TestError] = []
        _ = Single.just(1).flatMapCompletable { _ in Completable.error(testError1) }
            .subscribe(onError: { errors.append($0 as! TestError) })
        _ = Single.just(1).flatMapCompletable { _ -> Completable in throw testError2 }
            .subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }

    func testFlatMapCompletable_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        let res = scheduler.start(disposed: 240) { xs.asSingle().flatMapCompletable { _ in ys.asCompletable() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    /// A source whose completion comes after its element (a raw `Single`,
    /// as a bridge's producer may be): the inner's element passes at once,
    /// its subscription ends as it completes, and the result completes with
    /// the source, whose subscription ends then.
    func testFlatMap_SourceCompletesAfterTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(40)])
        let ys = scheduler.createColdObservable([.next(5, "a"), .completed(5)])
        let res = scheduler.start { Single<Int>(raw: xs.asObservable()).flatMap { _ in Single<String>(raw: ys.asObservable()) } }
        XCTAssertEqual(res.events, [.next(215, "a"), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])
    }

    /// A source that completes with no element: the result completes, and a
    /// `Single`'s subscriber hears `RxError.noElements`.
    func testFlatMap_SourceWithNoElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        var called = false
        let res = scheduler.start {
            Single<Int>(raw: xs.asObservable()).flatMap { value -> Single<Int> in
                called = true
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertFalse(called)
        var failure: Error?
        _ = Single<Int>(raw: .empty()).flatMap { Single.just($0) }.subscribe(onSuccess: { _ in }, onFailure: { failure = $0 })
        XCTAssertEqual(failure as? RxError, .noElements)
    }

    /// Held to `Observable.flatMap` (a merge, which RxSwift builds these on):
    /// the same events, at the same times, and the same subscriptions of
    /// the source and of the inner, for generated sources of at most one
    /// element (then a completion or an error, or nothing), inners of zero
    /// to three elements (then a completion, an error, or nothing), a
    /// selector that may throw, and a dispose at a random time or never.
    func testFlatMap_DoesWhatObservableFlatMapDoes() {
        var random = SplitMix(seed: 0x5EED_F1A7)
        for round in 0..<2_000 {
            let source = Self.sourceTimeline(&random)
            let inner = Self.innerTimeline(&random)
            let throwing = random.next() % 8 == 0
            let disposed = random.next() % 3 == 0 ? 1_000 : 200 + Int(random.next() % 80)
            func run(_ chain: @escaping (Observable<Int>, @escaping (Int) throws -> Observable<Int>) -> Observable<Int>)
                -> ([Recorded<Event<Int>>], [Subscription], [Subscription])
            {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createColdObservable(source)
                let ys = scheduler.createColdObservable(inner)
                let res = scheduler.start(disposed: disposed) {
                    chain(xs.asObservable()) { value in
                        if throwing { throw testError }
                        return value == 1 ? ys.asObservable() : .empty()
                    }
                }
                return (res.events, xs.subscriptions, ys.subscriptions)
            }
            let expected = run { source, selector in source.flatMap(selector) }
            let single = run { source, selector in
                Single<Int>(raw: source).flatMap { value in Single<Int>(raw: try selector(value)) }.asObservable()
            }
            let maybe = run { source, selector in
                Single<Int>(raw: source).flatMapMaybe { value in Maybe<Int>(raw: try selector(value)) }.asObservable()
            }
            let context = "round \(round): source \(source), inner \(inner), throwing \(throwing), disposed \(disposed)"
            XCTAssertEqual(single.0, expected.0, context)
            XCTAssertEqual(single.1, expected.1, context)
            XCTAssertEqual(single.2, expected.2, context)
            XCTAssertEqual(maybe.0, expected.0, context)
            XCTAssertEqual(maybe.1, expected.1, context)
            XCTAssertEqual(maybe.2, expected.2, context)
        }
    }

    /// The source's completion and the inner's on two threads at once: the
    /// result completes exactly once, after the inner's element, every time.
    func testFlatMap_CompletionsOnTwoThreads_CompleteOnce() {
        for _ in 0..<500 {
            let source = PublishSubject<Int>()
            let inner = PublishSubject<Int>()
            let events = Mutex<[Event<Int>]>([])
            let subscription = Single<Int>(raw: source.asObservable()).flatMap { _ in Single<Int>(raw: inner.asObservable()) }
                .asObservable().subscribe { event in events.withLock { $0.append(event) } }
            source.onNext(1)
            let both = DispatchGroup()
            DispatchQueue.global().async(group: both) { source.onCompleted() }
            DispatchQueue.global().async(group: both) {
                inner.onNext(2)
                inner.onCompleted()
            }
            both.wait()
            XCTAssertEqual(events.withLock { $0 }.map { "\($0)" }, ["next(2)", "completed"])
            subscription.dispose()
        }
    }

    private static func sourceTimeline(_ random: inout SplitMix) -> [Recorded<Event<Int>>] {
        let at = 1 + Int(random.next() % 30)
        switch random.next() % 6 {
        case 0: return [.completed(at)]
        case 1: return [.error(at, testError1)]
        case 2: return [.next(at, 1)]
        case 3: return [.next(at, 1), .error(at + Int(random.next() % 20), testError1)]
        default: return [.next(at, 1), .completed(at + Int(random.next() % 40))]
        }
    }

    private static func innerTimeline(_ random: inout SplitMix) -> [Recorded<Event<Int>>] {
        var at = Int(random.next() % 10)
        var events: [Recorded<Event<Int>>] = []
        for value in 0..<Int(random.next() % 4) {
            events.append(.next(at, 10 * (value + 1)))
            at += Int(random.next() % 10)
        }
        switch random.next() % 4 {
        case 0: events.append(.error(at, testError2))
        case 1: break
        default: events.append(.completed(at))
        }
        return events
    }
}

/// A small seeded generator (SplitMix64), so a failing round can be run again.
private struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
