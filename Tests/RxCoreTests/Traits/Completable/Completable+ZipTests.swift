import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CompletableZipTests: RxCoreTestCase {
    func testZip_CompletesAfterAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(30)])
        let res = scheduler.start { Completable.zip(xs.asCompletable(), ys.asCompletable()) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZip_ErrorDisposesOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(30)])
        let res = scheduler.start { Completable.zip([xs.asCompletable(), ys.asCompletable()]) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testZip_CollectionAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let res = scheduler.start { Completable.zip(Set([0, 1]).map { _ in xs.asCompletable() }) }
        XCTAssertEqual(res.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(200, 210)])

        var completed = false
        _ = Completable.zip([Completable]()).subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
    }

    func testZip_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        let res = scheduler.start(disposed: 220) { Completable.zip(xs.asCompletable(), xs.asCompletable()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }

    func testMerge_SameAsZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.error(20, testError)])
        let res = scheduler.start { Completable.merge(xs.asCompletable(), ys.asCompletable()) }
        XCTAssertEqual(res.events, [.error(220, testError)])

        var completed = 0
        _ = Completable.merge([Completable.empty(), Completable.empty()]).subscribe(onCompleted: { completed += 1 })
        _ = Completable.merge(AnyCollection([Completable.empty()])).subscribe(onCompleted: { completed += 1 })
        XCTAssertEqual(completed, 2)
    }
}
