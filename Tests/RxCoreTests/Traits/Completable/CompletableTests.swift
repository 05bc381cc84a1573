import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CompletableTests: RxCoreTestCase {
    func testCompletable_CreateCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Completable.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
                    observer(.completed)
                    observer(.error(testError))
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(res.events, [.completed(230, Never.self)])
    }

    func testCompletable_CreateFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Completable.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
                    observer(.error(testError))
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual(res.events.first?.time, 230)
        XCTAssertEqual(res.events.first?.value.error as? TestError, testError)
    }

    func testCompletable_SubscribeCallbacks() {
        var results: [String] = []
        _ = Completable.empty().subscribe(onCompleted: { results.append("completed") }, onDisposed: { results.append("disposed") })
        _ = Completable.error(testError).subscribe(onError: { _ in results.append("error") }, onDisposed: { results.append("disposed") })
        XCTAssertEqual(results, ["completed", "disposed", "error", "disposed"])
    }

    func testCompletable_DisposeBeforeOutcome() {
        let subject = PublishSubject<Int>()
        var results: [String] = []
        let subscription = subject.ignoreElements().asCompletable().subscribe(
            onCompleted: { results.append("completed") },
            onDisposed: { results.append("disposed") }
        )
        subject.onNext(1)
        subscription.dispose()
        subject.onCompleted()
        XCTAssertEqual(results, ["disposed"])
        XCTAssertFalse(subject.hasObservers)
    }
}
