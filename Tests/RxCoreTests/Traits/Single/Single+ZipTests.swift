import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleZipTests: RxCoreTestCase {
    func testZip_ResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZip_Tuple() {
        var result: (Int, String)?
        _ = Single.zip(Single.just(1), Single.just("a")).subscribe(onSuccess: { result = $0 })
        XCTAssertEqual(result?.0, 1)
        XCTAssertEqual(result?.1, "a")
    }

    func testZip_AllArities() {
        var sums: [Int] = []
        let s = Single.just(1)
        _ = Single.zip(s, s, s) { $0 + $1 + $2 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s, s) { $0 + $1 + $2 + $3 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s, s, s) { $0 + $1 + $2 + $3 + $4 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s, s, s, s) { $0 + $1 + $2 + $3 + $4 + $5 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s, s, s, s, s) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s, s, s, s, s, s) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip(s, s, s).subscribe(onSuccess: { sums.append($0.0 + $0.1 + $0.2) })
        _ = Single.zip(s, s, s, s, s, s, s, s).subscribe(onSuccess: { sums.append($0.0 + $0.7) })
        XCTAssertEqual(sums, [3, 4, 5, 6, 7, 8, 3, 2])
    }

    func testZip_ErrorDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual(res.events.first?.time, 210)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testZip_ResultSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Single<Int>.zip(xs.asSingle(), ys.asSingle()) { _, _ in throw testError } }
        XCTAssertEqual(res.events, [.error(220, testError)])
    }

    func testZip_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 230) { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZipCollection_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testZipCollection_ResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(220, 3), .completed(220)])
    }

    func testZipCollection_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testZipCollection_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.zip([Single<Int>]()) }
        XCTAssertEqual(res.events, [.next(200, []), .completed(200)])

        var failure: Error?
        _ = Single<Int>.zip([Single<Int>]()) { _ -> Int in throw testError }.subscribe(onFailure: { failure = $0 })
        XCTAssertEqual(failure as? TestError, testError)
    }

    func testZipCollection_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start(disposed: 220) { Single.zip([xs.asSingle(), xs.asSingle()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }
}
