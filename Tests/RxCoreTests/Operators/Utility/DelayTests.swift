import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DelayTests: RxCoreTestCase {
    private func simpleSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(550)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(250, 2),
            .next(350, 3),
            .next(450, 4),
            end,
        ])
    }

    func testDelay_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDelay_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(310)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDelay_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler)
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(350, 2),
                .next(450, 3),
                .next(550, 4),
                .completed(650),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelay_ShortDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler)
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 2),
                .next(400, 3),
                .next(500, 4),
                .completed(600),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelay_LongDelayOverlapsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler)
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(400, 2),
                .next(500, 3),
                .next(600, 4),
                .completed(700),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelay_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler, end: .error(550, testError))
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 2),
                .next(400, 3),
                .next(500, 4),
                .error(550, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelay_ErrorIsImmediateAndDropsPendingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler, end: .error(550, testError))
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(400, 2),
                .next(500, 3),
                .error(550, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelay_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = simpleSource(scheduler)
        let res = scheduler.start(disposed: 420) { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 420)])
    }

    func testDelay_SimultaneousElementsFollowOneTickApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(250, 1),
            .next(250, 2),
            .next(250, 3),
            .completed(260),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(350, 1),
                .next(351, 2),
                .next(352, 3),
                .completed(360),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDelay_ZeroDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.delay(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(211, 1),
                .next(221, 2),
                .completed(231),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDelay_ColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .completed(30),
        ])
        let res = scheduler.start { xs.delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(215, 1),
                .next(225, 2),
                .completed(235),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDelay_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.delay(.seconds(5), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(11) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testDelay_ErrorFromInsideOnNextIsDeliveredAfterIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = subject.delay(.seconds(5), scheduler: scheduler).subscribe(
            onNext: { value in
                received.append("start \(value)")
                subject.onError(testError)
                received.append("end \(value)")
            },
            onError: { _ in received.append("error") }
        )
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(11) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, ["start 1", "end 1", "error"])
        subscription.dispose()
    }
}
