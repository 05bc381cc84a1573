import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeIfEmptyTests: RxCoreTestCase {
    func testIfEmptyDefault_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.next(210, 9), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testIfEmptyDefault_Value() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
    }

    func testIfEmptyDefault_ErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.error(210, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys: TestableObservable<Int> = scheduler2.createColdObservable([.completed(50)])
        let res2 = scheduler2.start(disposed: 220) { ys.asMaybe().ifEmpty(default: 9) }
        XCTAssertEqual(res2.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testIfEmptySwitchToMaybe_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(switchTo: ys.asMaybe()) }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testIfEmptySwitchToMaybe_ValueSkipsOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(switchTo: ys.asMaybe()) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testIfEmptySwitchToSingle_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(switchTo: ys.asSingle()) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testIfEmptySwitchToSingle_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asMaybe().ifEmpty(switchTo: ys.asSingle()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }
}
