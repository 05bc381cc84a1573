import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class FlatMapTests: RxCoreTestCase {
    func testFlatMap_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.flatMap { Observable.just($0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testFlatMap_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.flatMap { Observable.just($0) } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMap_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(240, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(50, 12),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .next(35, 22),
            .completed(45),
        ])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(245, 21),
                .next(260, 12),
                .next(275, 22),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 270)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 285)])
    }

    func testFlatMap_CompletesWhenOuterAndEveryInnerAreDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .completed(250),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .completed(100),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .completed(45),
        ])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(245, 21),
                .completed(310),
            ])
        // The outer subscription ends as soon as the outer completes.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 310)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 285)])
    }

    func testFlatMap_SameColdInnerTwice() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(5, 7),
            .completed(20),
        ])
        let res = scheduler.start { xs.flatMap { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(215, 7),
                .next(225, 7),
                .completed(300),
            ])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(220, 240)])
    }

    func testFlatMap_SynchronousInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.flatMap { Observable.concat(Observable.just($0), Observable.just($0 * 10)) } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(210, 10),
                .next(220, 2),
                .next(220, 20),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFlatMap_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .error(250, testError),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(50, 12),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .next(35, 22),
            .completed(45),
        ])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(245, 21),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 250)])
    }

    func testFlatMap_InnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .next(270, 3),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(50, 12),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .error(15, testError),
        ])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(245, 21),
                .error(255, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 255)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 255)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 255)])
    }

    func testFlatMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(50, 12),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(5, 21),
            .next(35, 22),
            .completed(45),
        ])
        let res = scheduler.start(disposed: 250) { xs.flatMap { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(245, 21),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 250)])
    }

    func testFlatMap_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(240, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(50, 12),
            .completed(60),
        ])
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<Int> in
                if value == 2 { throw testError }
                return ys1
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(240, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
    }

    func testFlatMap_DisposeFromInsideOnNext() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.flatMap { _ in inner }.subscribe(onNext: { value in
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

    func testFlatMap_ReentrantEmissionIsSerialised() {
        let outer = PublishSubject<Int>()
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = outer.flatMap { $0 == 0 ? a : b }.subscribe(onNext: { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 1 {
                // Re-entrant emission from another inner: delivered after this call returns.
                b.onNext(2)
                XCTAssertEqual(received, [1])
            }
            depth -= 1
        })
        outer.onNext(0)
        outer.onNext(1)
        a.onNext(1)
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(maxDepth, 1)
        subscription.dispose()
    }

    func testFlatMap_ConcurrentInnersNeverInterleave() {
        let outer = PublishSubject<Int>()
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        let received = ManagedCounter()
        let subscription = outer.flatMap { $0 == 0 ? a : b }.subscribe(onNext: { _ in
            if inside.increment() != 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        })
        outer.onNext(0)
        outer.onNext(1)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? a : b
            for value in 0..<10_000 {
                subject.onNext(value)
            }
        }
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(received.current, 20_000)
        subscription.dispose()
    }
}
