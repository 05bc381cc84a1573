import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeDoTests: RxCoreTestCase {
    func testDo_ValueOrder() {
        var log: [String] = []
        let subscription = Maybe.just(1)
            .do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") })
        subscription.dispose()
        // The subscriber stops after the element; completion still reaches `do`.
        XCTAssertEqual(log, ["onSubscribe", "onNext 1", "success 1", "afterNext 1", "onCompleted", "afterCompleted", "onDispose"])
    }

    func testDo_EmptyAndError() {
        var log: [String] = []
        _ = Maybe<Int>.empty()
            .do(onNext: { _ in log.append("onNext") }, onCompleted: { log.append("onCompleted") })
            .subscribe(onCompleted: { log.append("completed") })
        _ = Maybe<Int>.error(testError)
            .do(onError: { _ in log.append("onError") }, afterError: { _ in log.append("afterError") })
            .subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["onCompleted", "completed", "onError", "error", "afterError"])
    }

    func testDo_OnNextThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asMaybe().do(onNext: { _ in throw testError }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDo_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        var disposedAt: Int?
        let res = scheduler.start(disposed: 220) { xs.asMaybe().do(onDispose: { disposedAt = scheduler.clock }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(disposedAt, 220)
    }
}
