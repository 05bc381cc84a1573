import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SkipForTests: RxCoreTestCase {
    func testSkipFor_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSkipFor_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(220),
        ])
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSkipFor_Zero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.skip(for: .seconds(0), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSkipFor_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(230, 3),
            .next(240, 4),
            .completed(250),
        ])
        let res = scheduler.start { xs.skip(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, 3),
                .next(240, 4),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSkipFor_ElementAtTheTimerTickIsSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(221, 3),
            .completed(230),
        ])
        // The hot event at 220 was scheduled before the timer due at 220, so it runs first.
        let res = scheduler.start { xs.skip(for: .seconds(20), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(221, 3),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSkipFor_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(220, testError),
        ])
        let res = scheduler.start { xs.skip(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSkipFor_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(260, 2),
            .next(280, 3),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 270) { xs.skip(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
    }

    func testSkipFor_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.skip(for: .seconds(5), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(1) { subject.onNext(0) }
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(20) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
