import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaterializeTests: RxCoreTestCase {
    func testMaterialize_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMaterialize_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(250),
        ])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(250, Event<Int>.completed),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterialize_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(250),
        ])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Event.next(2)),
                .next(220, Event.next(3)),
                .next(250, Event<Int>.completed),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterialize_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .error(250, testError),
            .next(260, 3),
        ])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Event.next(2)),
                .next(250, Event<Int>.error(testError)),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterialize_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .next(260, 3),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.materialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Event.next(2))
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterialize_ThenDematerializeRoundTrips() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .next(220, 3),
            .error(250, testError),
        ])
        let res = scheduler.start { xs.materialize().dematerialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
