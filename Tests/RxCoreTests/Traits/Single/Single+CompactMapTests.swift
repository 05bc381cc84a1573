import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleCompactMapTests: RxCoreTestCase {
    func testCompactMap_Value() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().compactMap { $0 * 3 } }
        XCTAssertEqual(res.events, [.next(210, 6), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCompactMap_NilCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().compactMap { _ -> Int? in nil } }
        XCTAssertEqual(res.events, [.completed(210)])
    }

    func testCompactMap_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asSingle().compactMap { $0 } }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testCompactMap_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asSingle().compactMap { _ -> Int? in throw testError } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCompactMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 220) { xs.asSingle().compactMap { $0 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
