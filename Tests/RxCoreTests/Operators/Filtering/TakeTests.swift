import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class TakeTests: RxCoreTestCase {
    private func values(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .completed(300),
        ])
    }

    func testTake_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTake_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTake_CompleteAfter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start { xs.take(10) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .next(230, 4),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTake_CompleteSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start { xs.take(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .next(230, 4),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTake_CompleteBefore() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .completed(220),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTake_One() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start { xs.take(1) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testTake_Zero_CompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start { xs.take(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testTake_ErrorBeforeCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .error(220, testError),
            .next(230, 3),
        ])
        let res = scheduler.start { xs.take(3) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTake_ErrorAfterCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTake_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = values(scheduler)
        let res = scheduler.start(disposed: 215) { xs.take(3) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testTake_ColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .next(30, 3),
            .completed(40),
        ])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTake_CountsBeforeForwarding() {
        // An element sent re-entrantly from downstream must not exceed the count.
        let subject = PublishSubject<Int>()
        var received: [Event<Int>] = []
        let subscription = subject.take(1).subscribe { event in
            received.append(event)
            if event.element == 1 {
                subject.onNext(2)
            }
        }
        subject.onNext(1)
        subject.onNext(3)
        XCTAssertEqual(received, [.next(1), .completed])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testTake_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.take(5).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testTake_SynchronousSource() {
        var received: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            for value in 1...5 { observer.onNext(value) }
            observer.onCompleted()
            return Disposables.create()
        }
        .take(2)
        .subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(1), .next(2), .completed])
    }
}
