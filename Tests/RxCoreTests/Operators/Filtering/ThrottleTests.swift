import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ThrottleTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>? = .completed(500)) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [
            .next(150, 1),
            .next(210, 2),
            .next(250, 3),
            .next(310, 4),
            .next(350, 5),
            .next(410, 6),
            .next(450, 7),
        ]
        if let end { events.append(end) }
        return scheduler.createHotObservable(events)
    }

    // MARK: latest: true

    func testThrottle_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testThrottle_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testThrottle_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
                .next(610, 7),
                .completed(610),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testThrottle_CompletedAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(900))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
                .next(610, 7),
                .completed(900),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 900)])
    }

    func testThrottle_NoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
                .next(610, 7),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testThrottle_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(250, 3),
            .next(310, 4),
            .next(350, 5),
            .error(410, testError),
            .next(450, 7),
            .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(410, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
    }

    func testThrottle_ErrorDropsPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testThrottle_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 400) { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testThrottle_TimerSpacedFromLastEmission() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .next(240, 3),
            .next(255, 4),
            .next(300, 5),
            .completed(400),
        ])
        let res = scheduler.start { xs.throttle(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 3),
                .next(270, 4),
                .next(300, 5),
                .completed(400),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testThrottle_ZeroDueTimePassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(230),
        ])
        let res = scheduler.start { xs.throttle(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(210, 2),
                .next(220, 3),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testThrottle_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.throttle(.seconds(5), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(30) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: latest: false

    func testThrottleNotLatest_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testThrottleNotLatest_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testThrottleNotLatest_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
                .completed(500),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testThrottleNotLatest_NoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testThrottleNotLatest_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(250, 3),
            .next(310, 4),
            .next(350, 5),
            .error(410, testError),
            .next(450, 7),
            .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(410, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
    }

    func testThrottleNotLatest_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 420) { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(410, 6),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 420)])
    }

    func testThrottleNotLatest_ElementExactlyAtDueTimeIsSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(239, 2),
            .next(240, 3),
            .completed(250),
        ])
        let res = scheduler.start { xs.throttle(.seconds(30), latest: false, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 3),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
