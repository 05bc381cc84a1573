import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DeferredTests: RxCoreTestCase {
    func testDeferred_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { Observable<Int>.never() } }
        XCTAssertEqual(res.events, [])
    }

    func testDeferred_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .completed(50, Int.self)
        ])
        let res = scheduler.start { Observable<Int>.deferred { xs.asObservable() } }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDeferred_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        var invoked = 0
        var xs: TestableObservable<Int>!
        let res = scheduler.start {
            Observable<Int>.deferred {
                invoked += 1
                xs = scheduler.createColdObservable([
                    .next(100, scheduler.clock),
                    .completed(200),
                ])
                return xs.asObservable()
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 200),
                .completed(400),
            ])
        XCTAssertEqual(invoked, 1)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDeferred_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(100, 1),
            .error(200, testError),
        ])
        let res = scheduler.start { Observable<Int>.deferred { xs.asObservable() } }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 1),
                .error(400, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDeferred_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(100, 1),
            .next(200, 2),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 350) { Observable<Int>.deferred { xs.asObservable() } }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 1)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
    }

    func testDeferred_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        var invoked = 0
        let res = scheduler.start {
            Observable<Int>.deferred {
                invoked += 1
                throw testError
            }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(invoked, 1)
    }

    func testDeferred_FactoryRunsPerSubscription() {
        var invoked = 0
        let source = Observable<Int>.deferred {
            invoked += 1
            return Observable.just(invoked)
        }
        XCTAssertEqual(invoked, 0)
        var received: [Int] = []
        _ = source.subscribe(onNext: { received.append($0) })
        _ = source.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1, 2])
    }
}
