import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class StartWithTests: RxCoreTestCase {
    func testStartWith_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.startWith(0) }
        XCTAssertEqual(res.events, [.next(200, 0)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testStartWith_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(250),
        ])
        let res = scheduler.start { xs.startWith(0) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_One() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .completed(250),
        ])
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(220, 2),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_Several() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 4),
            .completed(250),
        ])
        let res = scheduler.start { xs.startWith(1, 2, 3) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .next(200, 3),
                .next(220, 4),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_Chained() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 4),
            .completed(250),
        ])
        let res = scheduler.start { xs.startWith(3).startWith(1, 2) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .next(200, 3),
                .next(220, 4),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_NoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, 4),
            .completed(250),
        ])
        let res = scheduler.start { xs.startWith() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 4),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .error(250, testError),
            .next(260, 3),
        ])
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(220, 2),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, 2),
            .next(260, 3),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.startWith(1) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(220, 2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testStartWith_ColdSourceSubscribedAfterPrefix() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 5),
            .completed(20),
        ])
        let res = scheduler.start { xs.startWith(1, 2) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .next(210, 5),
                .completed(220),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testStartWith_SynchronousOrder() {
        var events: [Event<Int>] = []
        _ = Observable.of(3, 4).startWith(1, 2).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .next(3), .next(4), .completed])
    }
}
