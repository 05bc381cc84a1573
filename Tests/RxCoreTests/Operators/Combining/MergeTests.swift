import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MergeTests: RxCoreTestCase {
    // MARK: merge() of an observable of observables

    func testMerge_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>]())
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMerge_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(300, Observable<Int>.self)
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMerge_CompletesWhenOuterAndAllInnersAreDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(40, 12),
            .completed(50),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .next(35, 22),
            .completed(80),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(230, ys2),
            .completed(240),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(235, 21),
                .next(250, 12),
                .next(265, 22),
                .completed(310),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 310)])
    }

    func testMerge_OuterCompletesLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .completed(20),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .completed(400),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .completed(400),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testMerge_InnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(100, 12),
            .completed(110),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .error(15, testError),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(230, ys2),
            .completed(300),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(235, 21),
                .error(245, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 245)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 245)])
    }

    func testMerge_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(100, 12),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .error(250, testError),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testMerge_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(100, 12),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .next(220, ys),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 240) { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(230, 11),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240), Subscription(220, 240)])
    }

    func testMerge_DisposeFromInsideOnNext() {
        let outer = PublishSubject<Observable<Int>>()
        let inner = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.merge().subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        outer.onNext(inner.asObservable())
        inner.onNext(1)
        inner.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(outer.hasObservers)
        XCTAssertFalse(inner.hasObservers)
    }

    func testMerge_InnersCompletingOutOfOrderEachEndTheirOwnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        // Four inners running at once, completing 2, 4, 1, 3: each
        // completion ends exactly its own subscription, whether it is the
        // newest or one in the middle.
        let ys1 = scheduler.createColdObservable([.next(5, 1), .completed(70)])
        let ys2 = scheduler.createColdObservable([.next(5, 2), .completed(20)])
        let ys3 = scheduler.createColdObservable([.next(5, 3), .completed(60)])
        let ys4 = scheduler.createColdObservable([.next(5, 4), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(220, ys2),
            .next(230, ys3),
            .next(240, ys4),
            .completed(250),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events,
            [
                .next(215, 1),
                .next(225, 2),
                .next(235, 3),
                .next(245, 4),
                .completed(290),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 280)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(ys3.subscriptions, [Subscription(230, 290)])
        XCTAssertEqual(ys4.subscriptions, [Subscription(240, 260)])
    }

    func testMerge_InnersThatCompleteDuringSubscribeLeaveNothingRunning() {
        // Each inner completes inside its own subscribe; the disposable it
        // returns is disposed at once, and the merge completes after the
        // outer does.
        let outer = PublishSubject<Int>()
        var returnedDisposed = 0
        var received: [Int] = []
        var completed = false
        let subscription = outer.flatMap { value in
            Observable<Int>.create { observer in
                observer.onNext(value)
                observer.onCompleted()
                return Disposables.create { returnedDisposed += 1 }
            }
        }
        .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        for value in 1...100 {
            outer.onNext(value)
        }
        XCTAssertEqual(received, Array(1...100))
        XCTAssertEqual(returnedDisposed, 100)
        XCTAssertFalse(completed)
        outer.onCompleted()
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testMerge_DisposeFromInsideAnInnersSubscribeDisposesWhatItReturns() {
        let outer = PublishSubject<Int>()
        var subscription: Disposable?
        var innerDisposed = false
        var secondSelected = false
        subscription = outer.flatMap { value -> Observable<Int> in
            if value == 2 { secondSelected = true }
            return Observable<Int>.create { _ in
                subscription?.dispose()
                return Disposables.create { innerDisposed = true }
            }
        }
        .subscribe(onNext: { _ in XCTFail("nothing is emitted") })
        outer.onNext(1)
        XCTAssertTrue(innerDisposed)
        XCTAssertFalse(outer.hasObservers)
        outer.onNext(2)
        XCTAssertFalse(secondSelected)
    }

    func testMerge_DisposeDisposesTheOuterFirstThenTheInnersInOrder() {
        let outer = PublishSubject<Int>()
        let order = DisposalLog()
        let subscription = order.recordingDisposal(of: outer, as: "outer")
            .flatMap { value in
                Observable<Int>.never().do(onDispose: { order.entries.append("inner \(value)") })
            }
            .subscribe()
        outer.onNext(1)
        outer.onNext(2)
        outer.onNext(3)
        subscription.dispose()
        XCTAssertEqual(order.entries, ["outer", "inner 1", "inner 2", "inner 3"])
    }

    func testMerge_InnersSubscribedInsideAnotherInnersSubscribe_KeepTheirOrderAndEndTheirOwn() {
        // Inner 1's subscribe makes the outer emit 2, whose inner's
        // subscribe makes it emit 3: inners 2 and 3 start while 1 (and then
        // 2) is still being subscribed. 3 completes at once, 2 keeps
        // running, 1 keeps running; disposing disposes the outer, then 1, 2
        // in the order they were subscribed, and 3 never again.
        let outer = PublishSubject<Int>()
        let order = DisposalLog()
        var received: [Int] = []
        let subscription = order.recordingDisposal(of: outer, as: "outer")
            .flatMap { value in
                Observable<Int>.create { observer in
                    observer.onNext(value * 10)
                    if value < 3 {
                        outer.onNext(value + 1)
                    } else {
                        observer.onCompleted()
                    }
                    return Disposables.create { order.entries.append("inner \(value)") }
                }
            }
            .subscribe(onNext: { received.append($0) })
        outer.onNext(1)
        XCTAssertEqual(received, [10, 20, 30])
        XCTAssertEqual(order.entries, ["inner 3"])
        subscription.dispose()
        XCTAssertEqual(order.entries, ["inner 3", "outer", "inner 1", "inner 2"])
    }

    func testMerge_AnInnerThatCompletesDuringItsSubscribeAfterAReentrantOne_EndsOnlyItself() {
        // Inner 1 starts inner 2 (which runs on), then completes during its
        // own subscribe: 1's subscription is disposed at once, 2's stays
        // until the merge is disposed; the merge completes when the outer
        // and 2 have.
        let outer = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var disposed: [Int] = []
        var events: [String] = []
        let subscription = outer.flatMap { value -> Observable<Int> in
            if value == 2 {
                return second.do(onDispose: { disposed.append(2) })
            }
            return Observable<Int>.create { observer in
                outer.onNext(2)
                observer.onCompleted()
                return Disposables.create { disposed.append(1) }
            }
        }
        .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("|") })
        outer.onNext(1)
        XCTAssertEqual(disposed, [1])
        second.onNext(7)
        outer.onCompleted()
        XCTAssertEqual(events, ["7"])
        second.onCompleted()
        XCTAssertEqual(events, ["7", "|"])
        XCTAssertEqual(disposed, [1, 2])
        subscription.dispose()
    }

    func testMerge_CompletionDecidedWhileAnElementIsDelivered_ComesAfterIt() {
        // The downstream's onNext ends the outer sequence and the last
        // inner: the completion is queued behind the element being
        // delivered, then delivered once, and nothing follows it.
        let outer = PublishSubject<Observable<Int>>()
        let inner = PublishSubject<Int>()
        var events: [String] = []
        let subscription = outer.merge().subscribe(
            onNext: { value in
                events.append("\(value)")
                if value == 1 {
                    outer.onCompleted()
                    inner.onCompleted()
                    events.append("after")
                }
            },
            onCompleted: { events.append("|") })
        outer.onNext(inner.asObservable())
        inner.onNext(1)
        inner.onNext(2)
        XCTAssertEqual(events, ["1", "after", "|"])
        XCTAssertFalse(inner.hasObservers)
        subscription.dispose()
    }

    func testMerge_EventsMadeDuringADelivery_WaitTheirTurnInOrder_AndNothingFollowsAnError() {
        // While the downstream handles 1, inner b emits 2 (an element),
        // inner c emits 3 through on(.next) and then fails: each waits for
        // the delivery under way, they come in the order they were made,
        // and a's later element is dropped after the error.
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let c = PublishSubject<Int>()
        var events: [String] = []
        let subscription = Observable.merge([a.asObservable(), b.asObservable(), c.asObservable()]).subscribe(
            onNext: { value in
                events.append("\(value)")
                if value == 1 {
                    b.onNext(2)
                    c.on(.next(3))
                    c.onError(testError)
                    events.append("after")
                }
            },
            onError: { _ in events.append("#") })
        a.onNext(1)
        a.onNext(4)
        XCTAssertEqual(events, ["1", "after", "2", "3", "#"])
        XCTAssertFalse(a.hasObservers)
        XCTAssertFalse(b.hasObservers)
        subscription.dispose()
    }

    // MARK: Observable.merge(sources)

    func testMergeStatic_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(230, 3),
            .completed(250),
        ])
        let b = scheduler.createHotObservable([
            .next(220, 2),
            .next(240, 4),
            .completed(260),
        ])
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .next(230, 3),
                .next(240, 4),
                .completed(260),
            ])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 260)])
    }

    func testMergeStatic_EmptyArrayCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testMergeStatic_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { Observable.merge([a.asObservable(), Observable.empty()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 1000)])
    }

    func testMergeStatic_SynchronousSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.merge(Observable.just(1), Observable.just(2), Observable.empty()) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .completed(200),
            ])
    }

    func testMergeStatic_CollectionForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...3).lazy.map { Observable.just($0) }
        let res = scheduler.start { Observable.merge(sources) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .next(200, 3),
                .completed(200),
            ])
    }

    func testMergeStatic_ErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 3),
            .completed(250),
        ])
        let b = scheduler.createHotObservable([
            .next(220, 2),
            .error(225, testError),
        ])
        let res = scheduler.start { Observable.merge([a.asObservable(), b.asObservable()]) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .error(225, testError),
            ])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 225)])
    }

    func testMergeStatic_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([
            .next(210, 1),
            .completed(250),
        ])
        let b = scheduler.createHotObservable([
            .next(220, 2),
            .completed(260),
        ])
        let res = scheduler.start(disposed: 215) { Observable.merge(a.asObservable(), b.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 215)])
    }

    func testMergeStatic_ConcurrentSourcesNeverInterleave() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        let received = ManagedCounter()
        let completed = ManagedCounter()
        let subscription = Observable.merge(a.asObservable(), b.asObservable()).subscribe(
            onNext: { _ in
                if inside.increment() != 1 { overlaps.increment() }
                received.increment()
                inside.decrement()
            },
            onCompleted: {
                completed.increment()
            })
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? a : b
            for value in 0..<10_000 {
                subject.onNext(value)
            }
            subject.onCompleted()
        }
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(received.current, 20_000)
        XCTAssertEqual(completed.current, 1)
        subscription.dispose()
    }
}

/// The order in which a test's subscriptions were disposed.
private final class DisposalLog {
    var entries: [String] = []

    /// `subject`'s elements; disposing the subscription appends `name`.
    func recordingDisposal(of subject: PublishSubject<Int>, as name: String) -> Observable<Int> {
        Observable<Int>.create { observer in
            let inner = subject.subscribe(observer)
            return Disposables.create {
                inner.dispose()
                self.entries.append(name)
            }
        }
    }
}
