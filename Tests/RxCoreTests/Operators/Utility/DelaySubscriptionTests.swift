import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DelaySubscriptionTests: RxCoreTestCase {
    func testDelaySubscription_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 1000)])
    }

    func testDelaySubscription_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.completed(70)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
    }

    func testDelaySubscription_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 42),
            .next(60, 43),
            .completed(70),
        ])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(280, 42),
                .next(290, 43),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
    }

    func testDelaySubscription_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 42),
            .next(60, 43),
            .error(70, testError),
        ])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(280, 42),
                .next(290, 43),
                .error(300, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
    }

    func testDelaySubscription_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 42),
            .next(60, 43),
            .completed(70),
        ])
        let res = scheduler.start(disposed: 291) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(280, 42),
                .next(290, 43),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 291)])
    }

    func testDelaySubscription_DisposeBeforeSubscriptionCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 42),
            .completed(70),
        ])
        let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testDelaySubscription_HotSourceMissesEarlierEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .completed(250),
        ])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(240, 2),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 250)])
    }

    func testDelaySubscription_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.delaySubscription(.seconds(5), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(1) { subject.onNext(0) }
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(11) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
