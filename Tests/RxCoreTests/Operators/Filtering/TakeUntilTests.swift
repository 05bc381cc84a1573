import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import Synchronization
import XCTest

final class TakeUntilTests: RxCoreTestCase {
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

    // MARK: take(until: other)

    func testTakeUntil_OtherNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(225)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntil_OtherError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .error(225, testError)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntil_OtherEmpty_SourceContinues() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.take(until: r) }
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
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntil_OtherNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.take(until: r) }
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
        XCTAssertEqual(r.subscriptions, [Subscription(200, 250)])
    }

    func testTakeUntil_SourceNever_OtherNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 1000)])
    }

    func testTakeUntil_SourceNever_OtherNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 2)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.completed(225)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntil_SourceEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(240, 2)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 230)])
    }

    func testTakeUntil_SourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, testError)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(240, 2)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 220)])
    }

    func testTakeUntil_OtherBeforeFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(205, 2)])
        let res = scheduler.start { l.take(until: r) }
        XCTAssertEqual(res.events, [.completed(205)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 205)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 205)])
    }

    func testTakeUntil_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(235, 2)])
        let res = scheduler.start(disposed: 215) { l.take(until: r) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(r.subscriptions, [Subscription(200, 215)])
    }

    func testTakeUntil_SynchronousOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = source(scheduler)
        let res = scheduler.start { l.take(until: Observable.just(1)) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(l.subscriptions, [Subscription(200, 200)])
    }

    func testTakeUntil_OtherSubscribedFirst() {
        var order: [String] = []
        let source = Observable<Int>.create { _ in
            order.append("source")
            return Disposables.create()
        }
        let other = Observable<Int>.create { _ in
            order.append("other")
            return Disposables.create()
        }
        source.take(until: other).subscribe().dispose()
        XCTAssertEqual(order, ["other", "source"])
    }

    func testTakeUntil_ReentrantOtherFromOnNext() {
        // The trigger fires while an element is being delivered: completion
        // follows that element, and the element sent afterwards is dropped.
        let source = PublishSubject<Int>()
        let trigger = PublishSubject<Void>()
        var received: [Event<Int>] = []
        let subscription = source.take(until: trigger).subscribe { event in
            received.append(event)
            if event.element == 1 {
                trigger.onNext(())
                source.onNext(2)
            }
        }
        source.onNext(1)
        source.onNext(3)
        XCTAssertEqual(received, [.next(1), .completed])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(trigger.hasObservers)
        subscription.dispose()
    }

    func testTakeUntil_ConcurrentSourcesAreSerialised() {
        for _ in 0..<20 {
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Int>()
            let inside = Atomic<Int>(0)
            let overlaps = Atomic<Int>(0)
            let terminals = Atomic<Int>(0)
            let afterTerminal = Atomic<Int>(0)
            let subscription = source.take(until: trigger).subscribe { event in
                if inside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
                    overlaps.wrappingAdd(1, ordering: .sequentiallyConsistent)
                }
                if terminals.load(ordering: .sequentiallyConsistent) > 0 {
                    afterTerminal.wrappingAdd(1, ordering: .sequentiallyConsistent)
                }
                if event.isStopEvent {
                    terminals.wrappingAdd(1, ordering: .sequentiallyConsistent)
                }
                inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<2_000 { source.onNext(value) }
                } else {
                    // A short wait (through the subject's lock) so the
                    // trigger lands while elements are flowing.
                    for _ in 0..<500 where !source.hasObservers {}
                    trigger.onNext(0)
                }
            }
            XCTAssertEqual(overlaps.load(ordering: .sequentiallyConsistent), 0)
            XCTAssertEqual(terminals.load(ordering: .sequentiallyConsistent), 1)
            XCTAssertEqual(afterTerminal.load(ordering: .sequentiallyConsistent), 0)
            subscription.dispose()
        }
    }

    // MARK: take(until: predicate)

    func testTakeUntilPredicate_Exclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.take(until: { $0 == 4 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeUntilPredicate_Inclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.take(until: { $0 == 4 }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeUntilPredicate_FirstElementMatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let exclusive = scheduler.start { xs.take(until: { _ in true }) }
        XCTAssertEqual(exclusive.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testTakeUntilPredicate_FirstElementMatchesInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.take(until: { _ in true }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testTakeUntilPredicate_NeverMatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var calls = 0
        let res = scheduler.start {
            xs.take(until: { _ in
                calls += 1
                return false
            })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
                .next(230, 4),
                .next(240, 5),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(calls, 4)
    }

    func testTakeUntilPredicate_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.take(until: { $0 == 4 }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTakeUntilPredicate_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.take(until: { $0 == 4 }) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTakeUntilPredicate_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, testError)])
        let res = scheduler.start { xs.take(until: { $0 == 4 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeUntilPredicate_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.take(until: { value -> Bool in
                if value == 3 { throw testError }
                return false
            })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeUntilPredicate_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 225) { xs.take(until: { $0 == 5 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntilPredicate_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.take(until: { $0 > 10 }).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
