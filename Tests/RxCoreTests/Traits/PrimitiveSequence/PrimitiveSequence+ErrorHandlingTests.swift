import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PrimitiveSequenceErrorHandlingTests: RxCoreTestCase {
    func testCatch_SuccessPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        var handled = false
        let res = scheduler.start {
            xs.asSingle().catch { _ in
                handled = true
                return .just(2)
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertFalse(handled)
    }

    func testCatch_ErrorSwitchesToHandlerSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().catch { _ in ys.asSingle() } }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testCatch_HandlerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError1)])
        let res = scheduler.start { xs.asMaybe().catch { _ in throw testError2 } }
        XCTAssertEqual(res.events, [.error(210, testError2)])
    }

    func testCatch_DisposeDisposesHandlerSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asCompletable().catch { _ in ys.asCompletable() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testRetry_ResubscribesUntilSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ok = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        var attempts = 0
        let res = scheduler.start {
            Single<Int>.deferred {
                attempts += 1
                return attempts < 3 ? failing.asSingle() : ok.asSingle()
            }.retry()
        }
        XCTAssertEqual(res.events, [.next(230, 7), .completed(230)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220)])
        XCTAssertEqual(ok.subscriptions, [Subscription(220, 230)])
    }

    func testRetry_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start(disposed: 225) { failing.asSingle().retry() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 225)])
    }

    func testRetryCount_GivesUpWithLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { failing.asSingle().retry(2) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220)])
    }

    func testRetryCount_SucceedsWithinAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ok = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        var attempts = 0
        let res = scheduler.start {
            Maybe<Int>.deferred {
                attempts += 1
                return attempts < 2 ? failing.asMaybe() : ok.asMaybe()
            }.retry(3)
        }
        XCTAssertEqual(res.events, [.next(220, 7), .completed(220)])
        XCTAssertEqual(attempts, 2)
    }

    func testRetryWhen_TriggerResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ok = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        var attempts = 0
        let res = scheduler.start {
            Single<Int>.deferred {
                attempts += 1
                return attempts < 2 ? failing.asSingle() : ok.asSingle()
            }.retry { (errors: Observable<Swift.Error>) in errors }
        }
        XCTAssertEqual(res.events, [.next(220, 7), .completed(220)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ok.subscriptions, [Subscription(210, 220)])
    }

    func testRetryWhen_TriggerFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError1)])
        let res = scheduler.start {
            failing.asSingle().retry { (errors: Observable<TestError>) in
                errors.flatMap { _ in Observable<Int>.error(testError2) }
            }
        }
        XCTAssertEqual(res.events, [.error(210, testError2)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210)])
    }

    func testRetryWhen_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) {
            xs.asSingle().retry { (errors: Observable<Swift.Error>) in errors }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
