import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class TakeForTests: RxCoreTestCase {
    func testTakeFor_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTakeFor_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(220),
        ])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeFor_ZeroLength() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 201)])
    }

    func testTakeFor_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(230, 3),
            .completed(240),
        ])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .completed(225),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testTakeFor_SourceCompletesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeFor_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(220, testError),
        ])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeFor_ErrorAfterDurationIsNotSeen() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(300, testError),
        ])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTakeFor_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(240, 3),
        ])
        let res = scheduler.start(disposed: 230) { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeFor_ColdSourceRelativeToSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .next(30, 3),
            .completed(40),
        ])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .completed(225),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testTakeFor_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.take(for: .seconds(100), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(20) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testTakeFor_ReentrantElementIsDeliveredInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = subject.take(for: .seconds(10), scheduler: scheduler).subscribe(
            onNext: { value in
                received.append("next \(value)")
                if value == 1 {
                    subject.onNext(2)
                }
            },
            onCompleted: { received.append("completed") }
        )
        scheduler.scheduleAt(5) { subject.onNext(1) }
        scheduler.start()
        XCTAssertEqual(received, ["next 1", "next 2", "completed"])
        subscription.dispose()
    }
}
