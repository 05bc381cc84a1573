import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CompletableConcatTests: RxCoreTestCase {
    func testConcat_Instance() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        let res = scheduler.start { xs.asCompletable().concat(ys.asCompletable()) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testConcat_ErrorSkipsRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        let res = scheduler.start { Completable.concat(xs.asCompletable(), ys.asCompletable()) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testConcat_SequenceAndCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let res = scheduler.start { Completable.concat(AnySequence([xs.asCompletable(), xs.asCompletable()])) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys: TestableObservable<Never> = scheduler2.createColdObservable([.completed(5)])
        let res2 = scheduler2.start { Completable.concat([ys.asCompletable(), ys.asCompletable(), ys.asCompletable()]) }
        XCTAssertEqual(res2.events, [.completed(215)])
    }

    func testConcat_Empty() {
        var completed = false
        _ = Completable.concat([Completable]()).subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
    }

    func testConcat_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asCompletable().concat(ys.asCompletable()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }
}
