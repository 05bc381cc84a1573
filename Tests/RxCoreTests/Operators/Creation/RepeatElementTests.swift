import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class RepeatElementTests: RxCoreTestCase {
    func testRepeatElement_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 207) { Observable.repeatElement(42, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 42),
                .next(202, 42),
                .next(203, 42),
                .next(204, 42),
                .next(205, 42),
                .next(206, 42),
            ])
    }

    func testRepeatElement_DisposeBeforeFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 201) { Observable.repeatElement(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testRepeatElement_DisposeFromInsideOnNextOnCurrentThread() {
        nonisolated(unsafe) var count = 0
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            var subscription: Disposable?
            subscription = Observable.repeatElement("x").subscribe(onNext: { _ in
                count += 1
                if count == 100_000 {
                    subscription?.dispose()
                }
            })
            return Disposables.create()
        }
        XCTAssertEqual(count, 100_000)
    }

    func testRepeatElement_DisposeFromInsideOnNextWithRecursiveScheduling() {
        nonisolated(unsafe) var count = 0
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            var subscription: Disposable?
            subscription = Observable.repeatElement("x", scheduler: RecursiveTrampolineScheduler()).subscribe(onNext: { _ in
                count += 1
                if count == 1000 {
                    subscription?.dispose()
                }
            })
            return Disposables.create()
        }
        XCTAssertEqual(count, 1000)
    }
}
