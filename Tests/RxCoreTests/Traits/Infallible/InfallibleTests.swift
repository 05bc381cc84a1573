import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleTests: RxCoreTestCase {
    func testInfallible_CreateEmitsAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.next(2))
                observer(.completed)
                observer(.next(3))
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    func testInfallible_SubscribeCallbacks() {
        var results: [String] = []
        _ = Infallible.just(1).map { $0 * 3 }.filter { $0 > 1 }.subscribe(
            onNext: { results.append("next \($0)") },
            onCompleted: { results.append("completed") },
            onDisposed: { results.append("disposed") }
        )
        _ = Infallible<Int>.empty().subscribe(onCompleted: { results.append("empty") })
        var neverCalled = false
        Infallible<Int>.never().subscribe(onNext: { _ in neverCalled = true }).dispose()
        XCTAssertEqual(results, ["next 3", "completed", "disposed", "empty"])
        XCTAssertFalse(neverCalled)
    }

    func testInfallible_Deferred() {
        var count = 0
        let deferred = Infallible<Int>.deferred {
            count += 1
            return .just(count)
        }
        var values: [Int] = []
        _ = deferred.subscribe(onNext: { values.append($0) })
        _ = deferred.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
    }
}
