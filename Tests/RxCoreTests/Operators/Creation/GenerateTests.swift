import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class GenerateTests: RxCoreTestCase {
    func testGenerate_Finite() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { $0 <= 3 }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .next(202, 1),
                .next(203, 2),
                .next(204, 3),
                .completed(205),
            ])
    }

    func testGenerate_EmptyWhenConditionFailsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 10, condition: { $0 < 3 }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testGenerate_ThrowCondition() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in throw testError }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.error(201, testError)])
    }

    func testGenerate_ThrowIterate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) { _ in throw testError }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .error(202, testError),
            ])
    }

    func testGenerate_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .next(202, 1),
            ])
    }

    func testGenerate_DefaultSchedulerIsSynchronous() {
        var events: [Event<Int>] = []
        _ = Observable.generate(initialState: 1, condition: { $0 < 100 }) { $0 * 3 }.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(3), .next(9), .next(27), .next(81), .completed])
    }

    func testGenerate_HundredThousandOnCurrentThreadDoesNotOverflowTheStack() {
        var count = 0
        var completed = false
        _ = Observable.generate(initialState: 0, condition: { $0 < 100_000 }) { $0 + 1 }
            .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        XCTAssertEqual(count, 100_000)
        XCTAssertTrue(completed)
    }
}
