import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PrimitiveSequenceTimingTests: RxCoreTestCase {
    func testDelay_SingleSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().delay(.seconds(20), scheduler: scheduler) }
        // As in RxSwift, delay forwards one event per scheduled run: the
        // completion, due at the same time, follows one tick later.
        XCTAssertEqual(res.events, [.next(230, 1), .completed(231)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDelay_SingleErrorIsNotDelayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDelay_DisposeBeforeDelayedSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start(disposed: 220) { xs.asSingle().delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDelay_CompletableAndMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let res = scheduler.start { xs.asCompletable().delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(215)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createColdObservable([.next(10, 3), .completed(10)])
        let res2 = scheduler2.start { ys.asMaybe().delay(.seconds(5), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(215, 3), .completed(216)])
    }

    func testDelaySubscription_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
    }

    func testDelaySubscription_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
    }

    func testDelaySubscription_DisposeBeforeSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start(disposed: 220) { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testTimeout_SuccessInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTimeout_TimesOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(230, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTimeout_ErrorInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testTimeout_SwitchesToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(30), other: ys.asSingle(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 240)])
    }

    func testTimeout_OtherNotUsedWhenInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(30), other: ys.asSingle(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testTimeout_DisposeBeforeTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { xs.asSingle().timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTimer_Single() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 0), .completed(230)])
    }

    func testTimer_Maybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe<Int64>.timer(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, Int64(0)), .completed(205)])
    }

    func testTimer_DisposeBeforeDue() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 210) { Single<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }
}
