import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class FlatMapFirstTests: RxCoreTestCase {
    func testFlatMapFirst_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.flatMapFirst { Observable.just($0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testFlatMapFirst_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.flatMapFirst { Observable.just($0) } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMapFirst_IgnoresElementsWhileAnInnerIsActive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(230, 2),
            .next(280, 3),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(40, 12),
            .completed(50),
        ])
        let ys3 = scheduler.createColdObservable([
            .next(5, 31),
            .completed(30),
        ])
        var selected: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> TestableObservable<Int> in
                selected.append(value)
                return value == 1 ? ys1 : ys3
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(250, 12),
                .next(285, 31),
                .completed(310),
            ])
        XCTAssertEqual(selected, [1, 3])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(ys3.subscriptions, [Subscription(280, 310)])
    }

    func testFlatMapFirst_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(240, testError),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(40, 12),
            .completed(50),
        ])
        let res = scheduler.start { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(240, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    func testFlatMapFirst_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapFirst_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(40, 12),
            .completed(50),
        ])
        let res = scheduler.start(disposed: 230) { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapFirst_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let res = scheduler.start {
            xs.flatMapFirst { value -> Observable<Int> in
                if value == 2 { throw testError }
                return Observable.just(value)
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testFlatMapFirst_DisposeFromInsideOnNext() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.flatMapFirst { _ in inner }.subscribe(onNext: { value in
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
