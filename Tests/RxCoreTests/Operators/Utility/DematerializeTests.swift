import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DematerializeTests: RxCoreTestCase {
    func testDematerialize_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(1))
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDematerialize_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(41)),
            .next(210, Event.next(42)),
            .next(220, Event.next(43)),
            .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 42),
                .next(220, 43),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDematerialize_CompletedElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(42)),
            .next(230, Event<Int>.completed),
            .next(240, Event.next(44)),
            .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 42),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDematerialize_ErrorElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(42)),
            .next(220, Event<Int>.error(testError)),
            .next(230, Event.next(44)),
            .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 42),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDematerialize_SourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(42)),
            .error(220, testError, Event<Int>.self),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 42),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDematerialize_SourceEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(250, Event<Int>.self)
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDematerialize_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(42)),
            .next(260, Event.next(43)),
        ])
        let res = scheduler.start(disposed: 250) { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 42)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
