import RxCore
import RxCoreTestSupport
import XCTest

final class CurrentThreadSchedulerTests: RxCoreTestCase {
    func testCurrentThreadScheduler_RunsImmediatelyWhenIdle() {
        nonisolated(unsafe) var ran = false
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testCurrentThreadScheduler_NestedWorkIsQueued() {
        nonisolated(unsafe) var order: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            order.append("outer start")
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("inner")
                return Disposables.create()
            }
            order.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(order, ["outer start", "outer end", "inner"])
    }

    func testCurrentThreadScheduler_DisposedQueuedWorkDoesNotRun() {
        nonisolated(unsafe) var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }
            queued.dispose()
            return Disposables.create()
        }
        XCTAssertFalse(ran)
    }

    func testCurrentThreadScheduler_DeepRecursionDoesNotOverflowTheStack() {
        nonisolated(unsafe) var count = 0
        let disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            count += 1
            if value < 100_000 {
                recurse(value + 1)
            }
        }
        XCTAssertEqual(count, 100_001)
        disposable.dispose()
    }
}
