import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleFilteringTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .next(250, 1), .completed(300),
        ])
    }

    func testDistinctUntilChanged_Equatable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(240, 3), .next(250, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDistinctUntilChanged_KeyComparerKeyPath() {
        var byKey: [Int] = []
        var byComparer: [Int] = []
        var byKeyComparer: [Int] = []
        var byKeyPath: [String] = []
        let values = Infallible.from([1, 3, 2, 4, 5])
        _ = values.distinctUntilChanged { $0 % 2 }.subscribe(onNext: { byKey.append($0) })
        _ = values.distinctUntilChanged { abs($0 - $1) < 2 }.subscribe(onNext: { byComparer.append($0) })
        _ = values.distinctUntilChanged({ $0 / 2 }, comparer: { $0 == $1 }).subscribe(onNext: { byKeyComparer.append($0) })
        _ = Infallible.from(["a", "b", "cc"]).distinctUntilChanged(at: \.count).subscribe(onNext: { byKeyPath.append($0) })
        XCTAssertEqual(byKey, [1, 2, 5])
        XCTAssertEqual(byComparer, [1, 3, 5])
        XCTAssertEqual(byKeyComparer, [1, 3, 4])
        XCTAssertEqual(byKeyPath, ["a", "cc"])
    }

    func testDistinctUntilChanged_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 235) { xs.asInfallible(onErrorJustReturn: 0).distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testDebounce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(225, 2), .next(250, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testThrottle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(218, 3), .next(250, 4), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).throttle(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .next(250, 4), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(215, 2), .next(250, 4), .completed(300)])
        let res2 = scheduler2.start { ys.asInfallible(onErrorJustReturn: 0).throttle(.seconds(20), latest: false, scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(210, 1), .next(250, 4), .completed(300)])
    }

    func testTakeCountAndFor() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = source(scheduler2)
        let res2 = scheduler2.start { ys.asInfallible(onErrorJustReturn: 0).take(for: .seconds(25), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(210, 1), .next(220, 1), .completed(225)])
    }

    func testTakeWhileAndUntilPredicate() {
        var whileValues: [Int] = []
        var untilValues: [Int] = []
        var inclusive: [Int] = []
        let values = Infallible.from([1, 2, 3, 4])
        _ = values.take(while: { $0 < 3 }).subscribe(onNext: { whileValues.append($0) })
        _ = values.take(until: { $0 == 2 }).subscribe(onNext: { untilValues.append($0) })
        _ = values.take(while: { $0 < 3 }, behavior: .inclusive).subscribe(onNext: { inclusive.append($0) })
        XCTAssertEqual(whileValues, [1, 2])
        XCTAssertEqual(untilValues, [1])
        XCTAssertEqual(inclusive, [1, 2, 3])
    }

    func testTakeUntilOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let trigger = scheduler.createHotObservable([.next(235, "x")])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(until: trigger.asInfallible(onErrorJustReturn: "")) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 1), .next(230, 2), .completed(235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 235)])
    }

    func testTakeUntilObservable_ErrorDoesNotFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let trigger: TestableObservable<String> = scheduler.createHotObservable([.error(225, testError)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(until: trigger) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .next(250, 1), .completed(300)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 225)])
    }

    func testSkipVariants() {
        var counted: [Int] = []
        var whileValues: [Int] = []
        let values = Infallible.from([1, 2, 3, 1])
        _ = values.skip(2).subscribe(onNext: { counted.append($0) })
        _ = values.skip(while: { $0 < 3 }).subscribe(onNext: { whileValues.append($0) })
        XCTAssertEqual(counted, [3, 1])
        XCTAssertEqual(whileValues, [3, 1])

        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).skip(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 2), .next(240, 3), .next(250, 1), .completed(300)])
    }

    func testSkipUntilOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let trigger = scheduler.createHotObservable([.next(235, "x")])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).skip(until: trigger.asInfallible(onErrorJustReturn: "")) }
        XCTAssertEqual(res.events, [.next(240, 3), .next(250, 1), .completed(300)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 235)])
    }

    func testSkipUntilObservable_ErrorNeverTriggers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let trigger: TestableObservable<String> = scheduler.createHotObservable([.error(225, testError)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).skip(until: trigger) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 225)])
    }

    func testSkip_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 235) { xs.asInfallible(onErrorJustReturn: 0).skip(1) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }
}
