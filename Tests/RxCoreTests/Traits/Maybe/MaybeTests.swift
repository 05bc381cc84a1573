import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MaybeTests: RxCoreTestCase {
    func testMaybe_CreateOutcomes() {
        let scheduler = TestScheduler(initialClock: 0)
        func make(_ outcome: MaybeEvent<Int>) -> Maybe<Int> {
            Maybe<Int>.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(outcome)
                    observer(.success(99))
                    return Disposables.create()
                }
            }
        }
        let success = scheduler.start { make(.success(1)) }
        XCTAssertEqual(success.events, [.next(210, 1), .completed(210)])
    }

    func testMaybe_CreateEmptyAndError() {
        let scheduler1 = TestScheduler(initialClock: 0)
        let empty = scheduler1.start {
            Maybe<Int>.create { observer in
                scheduler1.scheduleRelative((), dueTime: .seconds(5)) { _ in
                    observer(.completed)
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(empty.events, [.completed(205)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let failed = scheduler2.start {
            Maybe<Int>.create { observer in
                scheduler2.scheduleRelative((), dueTime: .seconds(5)) { _ in
                    observer(.error(testError))
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(failed.events, [.error(205, testError)])
    }

    func testMaybe_SubscribeCallbacks() {
        var results: [String] = []
        _ = Maybe.just(1).subscribe(onSuccess: { results.append("success \($0)") }, onDisposed: { results.append("disposed") })
        _ = Maybe<Int>.empty().subscribe(onCompleted: { results.append("empty") }, onDisposed: { results.append("disposed") })
        _ = Maybe<Int>.error(testError).subscribe(onError: { _ in results.append("error") }, onDisposed: { results.append("disposed") })
        XCTAssertEqual(results, ["success 1", "disposed", "empty", "disposed", "error", "disposed"])
    }

    func testMaybe_MapFilterAsCompletable() {
        var results: [String] = []
        _ = Maybe.just(3).map { $0 + 1 }.filter { $0 == 4 }.subscribe(onSuccess: { results.append("\($0)") })
        _ = Maybe.just(3).filter { $0 == 4 }.subscribe(onSuccess: { _ in results.append("wrong") }, onCompleted: { results.append("empty") })
        _ = Maybe.just(3).asCompletable().subscribe(onCompleted: { results.append("completed") })
        XCTAssertEqual(results, ["4", "empty", "completed"])
    }
}
