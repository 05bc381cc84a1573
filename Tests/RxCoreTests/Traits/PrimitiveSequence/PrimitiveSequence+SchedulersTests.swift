import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PrimitiveSequenceSchedulersTests: RxCoreTestCase {
    func testObserveOn_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().observe(on: scheduler) }
        // As in RxSwift, observe(on:) delivers one event per scheduled run.
        XCTAssertEqual(res.events, [.next(211, 1), .completed(212)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testObserveOn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().observe(on: scheduler) }
        XCTAssertEqual(res.events, [.error(211, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testObserveOn_DisposeDropsPendingDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start(disposed: 210) { xs.asSingle().observe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testSubscribeOn_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(211)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 211)])
    }

    func testSubscribeOn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asCompletable().subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.error(211, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 211)])
    }

    func testSubscribeOn_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { xs.asMaybe().subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 221)])
    }
}
