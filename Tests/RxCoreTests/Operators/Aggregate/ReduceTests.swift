import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ReduceTests: RxCoreTestCase {
    func testReduce_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testReduce_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(250),
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 42),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testReduce_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .next(240, 3),
            .next(250, 4),
            .completed(260),
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        XCTAssertEqual(
            res.events,
            [
                .next(260, 52),
                .completed(260),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testReduce_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .error(250, testError),
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        XCTAssertEqual(res.events, [.error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testReduce_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 0),
            .next(220, 1),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.reduce(42, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testReduce_AccumulatorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .completed(260),
        ])
        let res = scheduler.start {
            xs.reduce(42) { accumulated, element -> Int in
                if element == 1 { throw testError }
                return accumulated + element
            }
        }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testReduceMapResult_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .completed(260),
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) { "\($0 * 5)" } }
        XCTAssertEqual(
            res.events,
            [
                .next(260, "225"),
                .completed(260),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testReduceMapResult_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(250, Int.self)
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) { $0 * 5 } }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 210),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testReduceMapResult_MapResultThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 0),
            .next(220, 1),
            .completed(260),
        ])
        let res = scheduler.start {
            xs.reduce(42, accumulator: +) { _ -> Int in throw testError }
        }
        XCTAssertEqual(res.events, [.error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testReduce_EachSubscriptionStartsFromSeed() {
        let source = Observable.of(1, 2, 3).reduce(10, accumulator: +)
        var results: [Int] = []
        _ = source.subscribe(onNext: { results.append($0) })
        _ = source.subscribe(onNext: { results.append($0) })
        XCTAssertEqual(results, [16, 16])
    }
}
