import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class TimeoutTests: RxCoreTestCase {
    func testTimeout_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.timeout(.seconds(1000), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTimeout_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .completed(300),
        ])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeout_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .error(300, testError),
        ])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeout_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(230, 2),
            .next(260, 3),
            .next(300, 4),
            .next(350, 5),
            .completed(400),
        ])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 2),
                .next(260, 3),
                .next(300, 4),
                .next(350, 5),
                .completed(400),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testTimeout_TimeoutBeforeFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(310, 1),
            .completed(400),
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(300, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeout_EachElementRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(250, 1),
            .next(340, 2),
            .next(450, 3),
            .completed(500),
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 1),
                .next(340, 2),
                .error(440, RxError.timeout),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 440)])
    }

    func testTimeout_ElementAtTheDueTickWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(300, 1),
            .completed(350),
        ])
        // The hot event was scheduled before the timer, so it runs first at 300.
        let res = scheduler.start { xs.timeout(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 1),
                .completed(350),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
    }

    func testTimeout_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(260, 2),
        ])
        let res = scheduler.start(disposed: 250) { xs.timeout(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTimeoutOther_SwitchesWhenNoElementArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1),
            .next(130, 2),
            .next(310, 3),
            .next(400, 4),
            .completed(500),
        ])
        let ys = scheduler.createColdObservable([
            .next(50, -1),
            .next(200, -2),
            .next(310, -3),
            .completed(320),
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(350, -1),
                .next(500, -2),
                .next(610, -3),
                .completed(620),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(300, 620)])
    }

    func testTimeoutOther_SwitchesAfterSomeElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1),
            .next(130, 2),
            .next(240, 3),
            .next(310, 4),
            .next(430, 5),
            .completed(500),
        ])
        let ys = scheduler.createColdObservable([
            .next(50, -1),
            .next(200, -2),
            .next(310, -3),
            .completed(320),
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(240, 3),
                .next(310, 4),
                .next(460, -1),
                .next(610, -2),
                .next(720, -3),
                .completed(730),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(ys.subscriptions, [Subscription(410, 730)])
    }

    func testTimeoutOther_NotNeededWhenSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .completed(250),
        ])
        let ys = scheduler.createColdObservable([
            .next(100, -1)
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testTimeoutOther_OtherErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1)
        ])
        let ys = scheduler.createColdObservable([
            .next(10, -1),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(270, -1),
                .error(280, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(260, 280)])
    }

    func testTimeoutOther_DisposeAfterSwitch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1)
        ])
        let ys = scheduler.createColdObservable([
            .next(10, -1),
            .next(100, -2),
        ])
        let res = scheduler.start(disposed: 300) { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(270, -1),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(260, 300)])
    }

    func testTimeoutOther_NeverOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0)
        ])
        let res = scheduler.start { xs.timeout(.seconds(100), other: Observable<Int>.never(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeout_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.timeout(.seconds(5), scheduler: scheduler).subscribe(
            onNext: { value in
                received.append(value)
                subscription?.dispose()
            },
            onError: { _ in XCTFail("the timer must be cancelled by the dispose") }
        )
        scheduler.scheduleAt(2) { subject.onNext(1) }
        scheduler.scheduleAt(4) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
