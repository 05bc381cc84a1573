import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleFlatMapTests: RxCoreTestCase {
    private func inner(_ scheduler: TestScheduler, _ value: Int) -> Infallible<Int> {
        scheduler.createColdObservable([.next(5, value * 10), .next(15, value * 10 + 1), .completed(20)])
            .asInfallible(onErrorJustReturn: -1)
    }

    func testFlatMap_MergesInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).flatMap { self.inner(scheduler, $0) } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 11), .next(225, 20), .next(235, 21), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFlatMapLatest_DisposesPrevious() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).flatMapLatest { self.inner(scheduler, $0) } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20), .next(235, 21), .completed(240)])
    }

    func testFlatMapFirst_DropsWhileBusy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).flatMapFirst { self.inner(scheduler, $0) } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 11), .next(245, 30), .next(255, 31), .completed(260)])
    }

    func testConcatMap_InOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).concatMap { self.inner(scheduler, $0) } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 11), .next(235, 20), .next(245, 21), .completed(250)])
    }

    func testFlatMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let ys = scheduler.createColdObservable([.next(50, 5)])
        let res = scheduler.start(disposed: 230) { xs.asInfallible(onErrorJustReturn: 0).flatMap { _ in ys.asInfallible(onErrorJustReturn: 0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }
}
