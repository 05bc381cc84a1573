import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SkipUntilTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .next(240, 5),
            .completed(250),
        ])
    }

    func testSkipUntil_OtherNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [.next(230, 4), .next(240, 5), .completed(250)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_OtherError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_OtherErrorAfterTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(215, 0), .error(225, testError)])
        let res = scheduler.start { l.skip(until: r) }
        // The trigger is unsubscribed after its first element: its error is never seen.
        XCTAssertEqual(res.events, [.next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 215)])
    }

    func testSkipUntil_SourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, testError)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(250)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 220)])
    }

    func testSkipUntil_OtherEmpty_NothingEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.skip(until: r) }
        // The source's completion is not forwarded: the result just ends.
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_OtherNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 250)])
    }

    func testSkipUntil_OtherErrorAfterSourceCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(300, testError)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 250)])
    }

    func testSkipUntil_SourceNever_OtherNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 2), .completed(250)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_SourceNever_OtherError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_SourceNever_OtherEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntil_NeverNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.skip(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 1000)])
    }

    func testSkipUntil_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(215, 0)])
        let res = scheduler.start(disposed: 235) { l.skip(until: r) }
        XCTAssertEqual(res.events, [.next(220, 3), .next(230, 4)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 215)])
    }

    func testSkipUntil_SynchronousOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let res = scheduler.start { l.skip(until: Observable.just(0)) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .next(230, 4),
                .next(240, 5),
                .completed(250),
            ])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 250)])
    }

    func testSkipUntil_SourceSubscribedFirst_OtherDisposedOnEnd() {
        var order: [String] = []
        var otherDisposed = false
        let source = Observable<Int>.create { _ in
            order.append("source")
            return Disposables.create()
        }
        let other = Observable<Int>.create { _ in
            order.append("other")
            return Disposables.create { otherDisposed = true }
        }
        source.skip(until: other).subscribe().dispose()
        XCTAssertEqual(order, ["source", "other"])
        XCTAssertTrue(otherDisposed)
    }

    func testSkipUntil_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        let trigger = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.skip(until: trigger).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        trigger.onNext(0)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(received, [2])
        XCTAssertFalse(subject.hasObservers)
        XCTAssertFalse(trigger.hasObservers)
    }
}
