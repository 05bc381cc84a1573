import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class WithLatestFromTests: RxCoreTestCase {
    func testWithLatestFrom_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(230, 2),
            .next(250, 3),
            .next(270, 4),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, "z"),
            .next(220, "a"),
            .next(240, "b"),
            .completed(260),
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(
            res.events,
            [
                .next(230, "2a"),
                .next(250, "3b"),
                // The latest element outlives the second source's completion.
                .next(270, "4b"),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testWithLatestFrom_WithoutSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .next(250, 3),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(220, "a"),
            .next(240, "b"),
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, "a"),
                .next(250, "b"),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testWithLatestFrom_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let ys = scheduler.createHotObservable([.next(150, "a")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testWithLatestFrom_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testWithLatestFrom_SecondNeverEmitsDropsFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let ys = scheduler.createHotObservable([
            .completed(215, String.self)
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
    }

    func testWithLatestFrom_FirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(230, 1),
            .error(240, testError),
        ])
        let ys = scheduler.createHotObservable([
            .next(220, "a")
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, "a"),
                .error(240, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testWithLatestFrom_SecondError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(230, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(220, "a"),
            .error(240, testError),
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, "a"),
                .error(240, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testWithLatestFrom_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(230, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(220, "a")
        ])
        let res = scheduler.start(disposed: 240) { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(230, "a")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testWithLatestFrom_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(230, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(220, "a")
        ])
        let res = scheduler.start {
            xs.withLatestFrom(ys) { first, second -> String in
                if first == 2 { throw testError }
                return "\(first)\(second)"
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(230, "1a"),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testWithLatestFrom_SecondIsSubscribedFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).withLatestFrom(Observable.just("a")) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, "a"),
                .completed(200),
            ])
    }

    func testWithLatestFrom_DisposeFromInsideOnNext() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<String>()
        var received: [String] = []
        var subscription: Disposable?
        subscription = first.withLatestFrom(second).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        second.onNext("a")
        first.onNext(1)
        first.onNext(2)
        XCTAssertEqual(received, ["a"])
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
    }
}
