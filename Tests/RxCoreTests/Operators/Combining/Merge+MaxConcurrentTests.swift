import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// `merge(maxConcurrent:)`: at most that many inners subscribed at once,
/// the rest queued and subscribed in order as slots free.
final class MergeMaxConcurrentTests: RxCoreTestCase {
    func testMergeMaxConcurrent_QueuesAndSubscribesAsSlotsFree() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .completed(50),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .next(60, 22),
            .completed(70),
        ])
        let ys3 = scheduler.createColdObservable([
            .next(5, 31),
            .completed(10),
        ])
        let ys4 = scheduler.createColdObservable([
            .next(5, 41),
            .completed(10),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(220, ys2),
            .next(230, ys3),
            .next(240, ys4),
            .completed(250),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(230, 21),
                .next(265, 31),
                .next(275, 41),
                .next(280, 22),
                .completed(290),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 290)])
        XCTAssertEqual(ys3.subscriptions, [Subscription(260, 270)])
        XCTAssertEqual(ys4.subscriptions, [Subscription(270, 280)])
    }

    func testMergeMaxConcurrent_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(300, Observable<Int>.self)
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMergeMaxConcurrent_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>]())
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMergeMaxConcurrent_InnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .error(30, testError),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21)
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(220, ys2),
            .completed(300),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(240, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [])
    }

    func testMergeMaxConcurrent_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11)
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 230)])
    }

    func testMergeMaxConcurrent_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .completed(20),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .completed(20),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(215, ys2),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 235) { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 235)])
    }
}
