import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DefaultIfEmptyTests: RxCoreTestCase {
    func testDefaultIfEmpty_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDefaultIfEmpty_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(201),
        ])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 11),
                .completed(201),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 201)])
    }

    func testDefaultIfEmpty_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(250),
        ])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDefaultIfEmpty_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .error(201, testError),
        ])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        XCTAssertEqual(res.events, [.error(201, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 201)])
    }

    func testDefaultIfEmpty_ErrorAfterValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .error(220, testError),
        ])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDefaultIfEmpty_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(300, Int.self)
        ])
        let res = scheduler.start(disposed: 250) { xs.ifEmpty(default: 11) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
