import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleDoTests: RxCoreTestCase {
    func testDo_SuccessOrder() {
        var log: [String] = []
        let subscription = Single.just(1)
            .do(
                onSuccess: { log.append("onSuccess \($0)") },
                afterSuccess: { log.append("afterSuccess \($0)") },
                onError: { _ in log.append("onError") },
                afterError: { _ in log.append("afterError") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onSuccess: { log.append("success \($0)") })
        subscription.dispose()
        XCTAssertEqual(log, ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onSubscribed", "onDispose"])
    }

    func testDo_ErrorOrder() {
        var log: [String] = []
        _ = Single<Int>.error(testError)
            .do(
                onSuccess: { _ in log.append("onSuccess") },
                onError: { _ in log.append("onError") },
                afterError: { _ in log.append("afterError") }
            )
            .subscribe(onFailure: { _ in log.append("failure") })
        XCTAssertEqual(log, ["onError", "failure", "afterError"])
    }

    func testDo_OnSuccessThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().do(onSuccess: { _ in throw testError }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDo_Timeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        var seen: [Int] = []
        let res = scheduler.start { xs.asSingle().do(onSuccess: { seen.append($0) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(seen, [1])
    }

    func testDo_DisposeRunsOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        var disposedAt: Int?
        let res = scheduler.start(disposed: 220) { xs.asSingle().do(onDispose: { disposedAt = scheduler.clock }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(disposedAt, 220)
    }
}
