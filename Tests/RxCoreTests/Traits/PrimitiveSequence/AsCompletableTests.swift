import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class AsCompletableTests: RxCoreTestCase {
    func testAsCompletable_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createHotObservable([.completed(250), .error(260, testError)])
        let res = scheduler.start { xs.asCompletable() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsCompletable_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createHotObservable([.error(210, testError)])
        let res = scheduler.start { xs.asCompletable() }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testAsCompletable_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createHotObservable([])
        let res = scheduler.start(disposed: 400) { xs.asCompletable() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    /// Other element types go through `ignoreElements()`, as in RxSwift.
    func testAsCompletable_IgnoreElementsDropsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.ignoreElements().asCompletable() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsCompletable_SingleAndMaybeDropTheirElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(220)])
        let single = scheduler.start { xs.asSingle().asCompletable() }
        XCTAssertEqual(single.events, [.completed(220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2), .completed(230)])
        let maybe = scheduler2.start { ys.asMaybe().asCompletable() }
        XCTAssertEqual(maybe.events, [.completed(230)])
    }
}
