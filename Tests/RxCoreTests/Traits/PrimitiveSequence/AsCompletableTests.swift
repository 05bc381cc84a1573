import RxCore
import RxTest
import XCTest

final class AsCompletableTests: RxCoreTestCase {
    func testAsCompletable_DropsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.asCompletable() }
        XCTAssertEqual(res.events, [.completed(250, Never.self)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsCompletable_ErrorNeverDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let res = scheduler.start { xs.asCompletable() }
        XCTAssertEqual(res.events.map(\.time), [230])
        XCTAssertEqual(res.events.first?.value.error as? TestError, testError)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 2)])
        let res2 = scheduler2.start(disposed: 400) { ys.asCompletable() }
        XCTAssertTrue(res2.events.isEmpty)
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 400)])
    }
}
