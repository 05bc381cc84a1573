import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeZipTests: RxCoreTestCase {
    func testZip_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) { $0 * 10 + $1 } }
        XCTAssertEqual(res.events, [.next(230, 12), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZip_EmptySourceCompletesWithoutElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.completed(10)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) }
        XCTAssertEqual(res.events.map(\.time), [230])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZip_TupleAndArities() {
        var results: [Int] = []
        let m = Maybe.just(2)
        _ = Maybe.zip(m, Maybe.just("b")).subscribe(onSuccess: { results.append($0.0) })
        _ = Maybe.zip(m, m, m, m, m, m, m, m) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onSuccess: { results.append($0) })
        _ = Maybe.zip(m, m, m, m).subscribe(onSuccess: { results.append($0.3) })
        XCTAssertEqual(results, [2, 16, 2])
    }

    func testZip_ErrorDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testZip_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { Maybe.zip(xs.asMaybe(), xs.asMaybe()) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }

    func testZipCollection_ValuesAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Maybe.zip([xs.asMaybe(), ys.asMaybe()]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .completed(220)])

        var empty: [Int]?
        _ = Maybe<Int>.zip([Maybe<Int>]()).subscribe(onSuccess: { empty = $0 })
        XCTAssertEqual(empty, [])
    }

    func testZipCollection_ErrorAndThrow() {
        var errors: [TestError] = []
        _ = Maybe.zip([Maybe.just(1), Maybe<Int>.error(testError1)]).subscribe(onError: { errors.append($0 as! TestError) })
        _ = Maybe<Int>.zip([Maybe.just(1)]) { _ -> Int in throw testError2 }.subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }
}
