import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DebounceTests: RxCoreTestCase {
    func testDebounce_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDebounce_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDebounce_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .error(300, testError),
        ])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDebounce_AllPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(200, 1),
            .next(250, 2),
            .next(300, 3),
            .next(350, 4),
            .next(400, 5),
            .next(450, 6),
            .next(500, 7),
            .completed(550),
        ])
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(290, 2),
                .next(340, 3),
                .next(390, 4),
                .next(440, 5),
                .next(490, 6),
                .next(540, 7),
                .completed(550),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDebounce_AllPassErrorEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(200, 1),
            .next(250, 2),
            .next(300, 3),
            .next(350, 4),
            .next(400, 5),
            .next(450, 6),
            .next(500, 7),
            .error(550, testError),
        ])
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(290, 2),
                .next(340, 3),
                .next(390, 4),
                .next(440, 5),
                .next(490, 6),
                .next(540, 7),
                .error(550, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDebounce_AllDropCompletionFlushesLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(200, 1),
            .next(250, 2),
            .next(300, 3),
            .next(350, 4),
            .next(400, 5),
            .next(450, 6),
            .next(500, 7),
            .completed(550),
        ])
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(550, 7),
                .completed(550),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDebounce_AllDropErrorDropsPending() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(250, 2),
            .next(300, 3),
            .next(350, 4),
            .error(400, testError),
        ])
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(400, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDebounce_SomeDrop() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(215, 2),
            .next(230, 3),
            .next(300, 4),
            .next(305, 5),
            .next(306, 6),
            .completed(400),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 3),
                .next(326, 6),
                .completed(400),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDebounce_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(250, 2),
            .next(290, 3),
            .completed(400),
        ])
        let res = scheduler.start(disposed: 300) { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, 1),
                .next(270, 2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDebounce_ZeroDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(211, 1),
                .next(221, 2),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDebounce_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.debounce(.seconds(5), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(30) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testDebounce_ReentrantSourceEventIsDeliveredAfterTheCurrentOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = subject.debounce(.seconds(5), scheduler: scheduler).subscribe(
            onNext: { value in
                received.append("next \(value)")
                if value == 1 {
                    // Completion flushes nothing new, and arrives after this onNext returns.
                    subject.onCompleted()
                    received.append("after onCompleted")
                }
            },
            onCompleted: { received.append("completed") }
        )
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.start()
        XCTAssertEqual(received, ["next 1", "after onCompleted", "completed"])
        subscription.dispose()
    }
}
