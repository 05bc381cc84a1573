import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleFlatMapTests: RxCoreTestCase {
    func testFlatMap_Success() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, "a"), .completed(20)])
        let res = scheduler.start { xs.asSingle().flatMap { value in ys.asSingle().map { "\($0)\(value)" } } }
        XCTAssertEqual(res.events, [.next(230, "a1"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMap_SourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable([.error(10, testError)])
        var called = false
        let res = scheduler.start {
            xs.asSingle().flatMap { value -> Single<Int> in
                called = true
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertFalse(called)
    }

    func testFlatMap_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(5, testError)])
        let res = scheduler.start { xs.asSingle().flatMap { _ in ys.asSingle() } }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])
    }

    func testFlatMap_SelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().flatMap { _ -> Single<Int> in throw testError } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testFlatMap_DisposeWhileInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 230) { xs.asSingle().flatMap { _ in ys.asSingle() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapMaybe_SuccessAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.completed(5)])
        let res = scheduler.start { xs.asSingle().flatMapMaybe { _ in ys.asMaybe() } }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])

        var values: [Int] = []
        _ = Single.just(2).flatMapMaybe { Maybe.just($0 * 10) }.subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [20])
    }

    func testFlatMapMaybe_ErrorAndThrow() {
        var errors: [TestError] = []
        _ = Single<Int>.error(testError1).flatMapMaybe { Maybe.just($0) }
            .subscribe(onError: { errors.append($0 as! TestError) })
        _ = Single.just(1).flatMapMaybe { _ -> Maybe<Int> in throw testError2 }
            .subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }

    func testFlatMapMaybe_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(50, 2), .completed(50)])
        let res = scheduler.start(disposed: 240) { xs.asSingle().flatMapMaybe { _ in ys.asMaybe() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    func testFlatMapCompletable_Completes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        var received: Int?
        let res = scheduler.start {
            xs.asSingle().flatMapCompletable { value in
                received = value
                return ys.asCompletable()
            }
        }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(received, 1)
    }

    func testFlatMapCompletable_InnerErrorAndThrow() {
        var errors: [TestError] = []
        _ = Single.just(1).flatMapCompletable { _ in Completable.error(testError1) }
            .subscribe(onError: { errors.append($0 as! TestError) })
        _ = Single.just(1).flatMapCompletable { _ -> Completable in throw testError2 }
            .subscribe(onError: { errors.append($0 as! TestError) })
        XCTAssertEqual(errors, [testError1, testError2])
    }

    func testFlatMapCompletable_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        let res = scheduler.start(disposed: 240) { xs.asSingle().flatMapCompletable { _ in ys.asCompletable() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }
}
