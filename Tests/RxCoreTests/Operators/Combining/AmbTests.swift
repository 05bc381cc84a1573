import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class AmbTests: RxCoreTestCase {
    func testAmb_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1)])
        let x2 = scheduler.createHotObservable([.next(150, 2)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 1000)])
    }

    func testAmb_EmptyWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.completed(225, Int.self)])
        let x2 = scheduler.createHotObservable([.next(230, 2), .completed(240)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.completed(225)])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 225)])
    }

    func testAmb_LeftWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(240, 3),
            .completed(250),
        ])
        let x2 = scheduler.createHotObservable([
            .next(220, 2),
            .completed(260),
        ])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 3),
                .completed(250),
            ])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 210)])
    }

    func testAmb_RightWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(220, 1),
            .completed(250),
        ])
        let x2 = scheduler.createHotObservable([
            .next(210, 2),
            .next(230, 4),
            .completed(260),
        ])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(230, 4),
                .completed(260),
            ])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 260)])
    }

    func testAmb_ErrorWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(220, 1),
            .completed(250),
        ])
        let x2 = scheduler.createHotObservable([
            .error(210, testError, Int.self)
        ])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 210)])
    }

    func testAmb_WinnerErrorAfterValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let x2 = scheduler.createHotObservable([
            .next(220, 2)
        ])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(230, testError),
            ])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 210)])
    }

    func testAmb_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 3),
        ])
        let x2 = scheduler.createHotObservable([
            .next(220, 2)
        ])
        let res = scheduler.start(disposed: 230) { x1.amb(x2) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 210)])
    }

    func testAmb_SynchronousLeftWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let x2 = scheduler.createHotObservable([
            .next(210, 2)
        ])
        let res = scheduler.start { Observable.just(1).amb(x2) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .completed(200),
            ])
        // The right side is still subscribed, and disposed at once.
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 200)])
    }

    func testAmb_StaticSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([
            .next(230, 1)
        ])
        let x2 = scheduler.createHotObservable([
            .next(220, 2),
            .next(240, 4),
            .completed(250),
        ])
        let x3 = scheduler.createHotObservable([
            .next(225, 3)
        ])
        let res = scheduler.start { Observable.amb([x1, x2, x3].map { $0.asObservable() }) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 2),
                .next(240, 4),
                .completed(250),
            ])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(x3.subscriptions, [Subscription(200, 220)])
    }

    func testAmb_StaticEmptySequenceNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.amb([Observable<Int>]()) }
        XCTAssertEqual(res.events, [])
    }

    func testAmb_DisposeFromInsideOnNext() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = left.amb(right).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        right.onNext(1)
        right.onNext(2)
        left.onNext(3)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(left.hasObservers)
        XCTAssertFalse(right.hasObservers)
    }
}
