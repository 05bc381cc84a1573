import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CompletableDoTests: RxCoreTestCase {
    func testDo_CompletedOrder() {
        var log: [String] = []
        _ = Completable.empty()
            .do(
                onError: { _ in log.append("onError") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["onSubscribe", "onCompleted", "completed", "afterCompleted", "onSubscribed", "onDispose"])
    }

    func testDo_ErrorTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.error(10, testError)])
        var log: [String] = []
        let res = scheduler.start {
            xs.asCompletable().do(onError: { _ in log.append("onError") }, afterError: { _ in log.append("afterError") })
        }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(log, ["onError", "afterError"])
    }

    func testDo_OnCompletedThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let res = scheduler.start { xs.asCompletable().do(onCompleted: { throw testError }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testDo_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        var disposedAt: Int?
        let res = scheduler.start(disposed: 220) { xs.asCompletable().do(onDispose: { disposedAt = scheduler.clock }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(disposedAt, 220)
    }
}
