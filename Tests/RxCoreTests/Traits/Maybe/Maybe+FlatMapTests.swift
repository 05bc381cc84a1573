import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeFlatMapTests: RxCoreTestCase {
    func testFlatMap_Value() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 5), .completed(20)])
        let res = scheduler.start { xs.asMaybe().flatMap { value in ys.asMaybe().map { $0 + value } } }
        XCTAssertEqual(res.events, [.next(230, 6), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMap_EmptySkipsSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        var called = false
        let res = scheduler.start {
            xs.asMaybe().flatMap { value -> Maybe<Int> in
                called = true
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [.completed(210)])
        XCTAssertFalse(called)
    }

    func testFlatMap_InnerEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asMaybe().flatMap { _ in Maybe<Int>.empty() } }
        XCTAssertEqual(res.events, [.completed(210)])
    }

    func testFlatMap_Errors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let res = scheduler.start { xs.asMaybe().flatMap { Maybe.just($0) } }
        XCTAssertEqual(res.events, [.error(210, testError)])

        var errors: [TestError] = []
        _ = Maybe.just(1).flatMap { _ in Maybe<Int>.error(testError1) }.subscribe(onError: { errors.append($0 as! TestError) })
        _ = Maybe.just(1).flatMap { _ -> Maybe<Int> in throw testError2 }.subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }

    func testFlatMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 5), .completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asMaybe().flatMap { _ in ys.asMaybe() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }
}
