import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeCompactMapTests: RxCoreTestCase {
    func testCompactMap_Value() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "4"), .completed(10)])
        let res = scheduler.start { xs.asMaybe().compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.next(210, 4), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCompactMap_NilAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "x"), .completed(10)])
        let res = scheduler.start { xs.asMaybe().compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.completed(210)])

        var completed = false
        _ = Maybe<String>.empty().compactMap { Int($0) }.subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
    }

    func testCompactMap_ErrorAndThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asMaybe().compactMap { $0 } }
        XCTAssertEqual(res.events, [.error(210, testError)])

        var failure: Error?
        _ = Maybe.just(1).compactMap { _ -> Int? in throw testError }.subscribe(onError: { failure = $0 })
        XCTAssertEqual(failure as? TestError, testError)
    }

    func testCompactMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { xs.asMaybe().compactMap { $0 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
