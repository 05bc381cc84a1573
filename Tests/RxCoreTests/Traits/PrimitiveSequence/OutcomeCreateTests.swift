import Dispatch
import RxCore
import RxCoreTestSupport
import Synchronization
import XCTest

/// The traits' `create` (`OutcomeCreate.swift`): one outcome, reported
/// during subscribe or later, from any thread, and what it ends.
final class OutcomeCreateTests: RxCoreTestCase {
    func testSingle_OutcomeDuringSubscribe_EndsTheSubscriptionAndDisposesWhatSubscribeReturned() {
        var returnedDisposed = 0
        var events: [String] = []
        let subscription = Single<Int>.create { observer in
            observer(.success(7))
            observer(.failure(testError))
            return Disposables.create { returnedDisposed += 1 }
        }
        .subscribe(onSuccess: { events.append("success \($0)") }, onFailure: { _ in events.append("failure") })
        XCTAssertEqual(events, ["success 7"])
        XCTAssertEqual(returnedDisposed, 1)
        subscription.dispose()
        XCTAssertEqual(returnedDisposed, 1)
    }

    func testMaybe_EveryOutcome_AsObservableEvents() {
        func events(_ outcome: MaybeEvent<Int>) -> [String] {
            var seen: [String] = []
            _ = Maybe<Int>.create { observer in
                observer(outcome)
                observer(.success(99))
                return Disposables.create()
            }
            .asObservable()
            .subscribe(onNext: { seen.append("\($0)") }, onError: { _ in seen.append("#") }, onCompleted: { seen.append("|") })
            return seen
        }
        XCTAssertEqual(events(.success(1)), ["1", "|"])
        XCTAssertEqual(events(.completed), ["|"])
        XCTAssertEqual(events(.error(testError)), ["#"])
    }

    func testCompletable_DisposedBeforeTheOutcome_DeliversNothing() {
        var report: CompletableObserverBox?
        var events: [String] = []
        var returnedDisposed = false
        let subscription = Completable.create { observer in
            report = CompletableObserverBox(observer)
            return Disposables.create { returnedDisposed = true }
        }
        .subscribe(onCompleted: { events.append("|") }, onError: { _ in events.append("#") })
        subscription.dispose()
        XCTAssertTrue(returnedDisposed)
        report?.observer(.completed)
        XCTAssertEqual(events, [])
    }

    func testSingle_OutcomesRacingOnTwoThreads_OnlyOneCounts() {
        // 200 subscriptions, each told its outcome by two threads at once:
        // every subscriber sees exactly one outcome, success or failure.
        for _ in 0..<200 {
            let outcomes = Mutex(0)
            let done = DispatchGroup()
            _ = Single<Int>.create { observer in
                for index in 0..<2 {
                    done.enter()
                    DispatchQueue.global().async {
                        observer(index == 0 ? .success(1) : .failure(testError))
                        done.leave()
                    }
                }
                return Disposables.create()
            }
            .subscribe(onSuccess: { _ in outcomes.withLock { $0 += 1 } }, onFailure: { _ in outcomes.withLock { $0 += 1 } })
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(outcomes.withLock { $0 }, 1)
        }
    }
}

/// Holds a `Completable.create` observer for a later call.
private final class CompletableObserverBox {
    let observer: Completable.CompletableObserver

    init(_ observer: @escaping Completable.CompletableObserver) {
        self.observer = observer
    }
}
