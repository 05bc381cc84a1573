import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MapTests: RxCoreTestCase {
    func testMap_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMap_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMap_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .next(240, 4),
            .completed(300),
        ])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 0),
                .next(220, 2),
                .next(230, 4),
                .next(240, 8),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMap_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .error(220, testError),
            .next(230, 2),
        ])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 0),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(290, 2),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.map { $0 * 2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 0),
                .next(220, 2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMap_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .completed(300),
        ])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 1 { throw testError }
                return value * 2
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 0),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMap_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.map { $0 + 1 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [2])
        XCTAssertFalse(subject.hasObservers)
    }
}
