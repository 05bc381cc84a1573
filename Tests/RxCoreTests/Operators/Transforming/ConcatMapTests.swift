import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ConcatMapTests: RxCoreTestCase {
    func testConcatMap_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.concatMap { Observable.just($0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testConcatMap_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.concatMap { Observable.just($0) } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testConcatMap_SubscribesNextInnerAfterPreviousCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(30, 12),
            .completed(40),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .completed(20),
        ])
        var selectedAt: [Int] = []
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<Int> in
                selectedAt.append(scheduler.clock)
                return value == 1 ? ys1 : ys2
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(240, 12),
                .next(260, 21),
                .completed(300),
            ])
        // The selector runs when the element arrives, even if its inner waits.
        XCTAssertEqual(selectedAt, [210, 220])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 270)])
    }

    func testConcatMap_CompletesAfterLastInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 5),
            .completed(40),
        ])
        let res = scheduler.start { xs.concatMap { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 5),
                .next(260, 5),
                .completed(290),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250), Subscription(250, 290)])
    }

    func testConcatMap_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .error(230, testError),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 5),
            .completed(40),
        ])
        let res = scheduler.start { xs.concatMap { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 5),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testConcatMap_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 5),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.concatMap { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 5),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testConcatMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 5),
            .completed(40),
        ])
        let res = scheduler.start(disposed: 255) { xs.concatMap { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 5)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 255)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250), Subscription(250, 255)])
    }

    func testConcatMap_ThrowsForQueuedElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(5, 5),
            .completed(40),
        ])
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<Int> in
                if value == 2 { throw testError }
                return ys
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(215, 5),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testConcatMap_LongQueueOfSynchronousInners() {
        let outer = PublishSubject<Int>()
        let gate = PublishSubject<Int>()
        var received: [Int] = []
        var completed = false
        let subscription =
            outer
            .concatMap { value -> Observable<Int> in value == 0 ? gate.asObservable() : Observable.just(value) }
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        outer.onNext(0)
        for value in 1...10_000 {
            outer.onNext(value)
        }
        outer.onCompleted()
        XCTAssertEqual(received, [])
        // Completing the first inner starts 10,000 queued synchronous inners in a loop.
        gate.onCompleted()
        XCTAssertEqual(received, Array(1...10_000))
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testConcatMap_DisposeFromInsideOnNext() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.concatMap { _ in inner }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        outer.onNext(0)
        inner.onNext(1)
        inner.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(outer.hasObservers)
        XCTAssertFalse(inner.hasObservers)
    }
}
