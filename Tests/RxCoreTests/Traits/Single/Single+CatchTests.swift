import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleCatchTests: RxCoreTestCase {
    func testCatchAndReturn_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().catchAndReturn(0) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCatchAndReturn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().catchAndReturn(0) }
        XCTAssertEqual(res.events, [.next(210, 0), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCatchAndReturn_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(50, testError)])
        let res = scheduler.start(disposed: 220) { xs.asSingle().catchAndReturn(0) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
