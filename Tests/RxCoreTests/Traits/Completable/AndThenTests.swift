import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class AndThenTests: RxCoreTestCase {
    func testAndThen_SubscribesSecondAfterFirstCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(20, Never.self)])
        let second = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start {
            first.asCompletable().andThen(second.asObservable())
        }
        XCTAssertEqual(res.events, [.next(230, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])
    }

    func testAndThen_ErrorSkipsSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.error(20, testError, Never.self)])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let res = scheduler.start {
            first.asCompletable().andThen(second.asObservable())
        }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testAndThen_DisposeWhileFirstRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(100, Never.self)])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let res = scheduler.start(disposed: 250) {
            first.asCompletable().andThen(second.asObservable())
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testAndThen_DisposeWhileSecondRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(20, Never.self)])
        let second = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(200)])
        let res = scheduler.start(disposed: 260) {
            first.asCompletable().andThen(second.asObservable())
        }
        XCTAssertEqual(res.events, [.next(230, 1)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 260)])
    }

    func testAndThen_TraitForms() {
        var results: [String] = []
        _ = Completable.empty().andThen(Single.just(1)).subscribe(onSuccess: { results.append("single \($0)") })
        _ = Completable.empty().andThen(Maybe<Int>.empty()).subscribe(onCompleted: { results.append("maybe empty") })
        _ = Completable.empty().andThen(Completable.empty()).subscribe(onCompleted: { results.append("completable") })
        _ = Completable.error(testError).andThen(Single.just(1)).subscribe(onFailure: { _ in results.append("failed") })
        XCTAssertEqual(results, ["single 1", "maybe empty", "completable", "failed"])
    }
}
