import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PrimitiveSequenceDebugTests: RxCoreTestCase {
    func testDebug_SuccessPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().debug("single") }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDebug_ErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asCompletable().debug(trimOutput: true) }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testDebug_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { xs.asMaybe().debug() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
