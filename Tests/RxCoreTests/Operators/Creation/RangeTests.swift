import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class RangeTests: RxCoreTestCase {
    func testRange_Zero() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 0, count: 0, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testRange_One() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 0, count: 1, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .completed(202),
            ])
    }

    func testRange_Five() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: -3, count: 5, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, -3),
                .next(202, -2),
                .next(203, -1),
                .next(204, 0),
                .next(205, 1),
                .completed(206),
            ])
    }

    func testRange_Boundaries() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: Int.max, count: 1, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, Int.max),
                .completed(202),
            ])
    }

    func testRange_UnsignedUpToMax() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<UInt8>.range(start: 253, count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 253),
                .next(202, 254),
                .next(203, 255),
                .completed(204),
            ])
    }

    /// The synchronous loop (no scheduler) stops at the type's last value
    /// without stepping past it.
    func testRange_SynchronousUpToMax() {
        var events: [Event<Int8>] = []
        _ = Observable<Int8>.range(start: 125, count: 3).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(125), .next(126), .next(127), .completed])
    }

    func testRange_UnsignedEmpty() {
        var events: [Event<UInt>] = []
        _ = Observable<UInt>.range(start: 0, count: 0).subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
    }

    func testRange_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.range(start: -10, count: Int.max, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, -10),
                .next(202, -9),
                .next(203, -8),
            ])
    }

    func testRange_DefaultSchedulerIsSynchronous() {
        var events: [Event<Int>] = []
        _ = Observable.range(start: 5, count: 3).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(5), .next(6), .next(7), .completed])
    }

    func testRange_HundredThousandOnCurrentThreadDoesNotOverflowTheStack() {
        var count = 0
        var last = -1
        var completed = false
        _ = Observable.range(start: 0, count: 100_000).subscribe(
            onNext: { value in
                count += 1
                last = value
            },
            onCompleted: {
                completed = true
            })
        XCTAssertEqual(count, 100_000)
        XCTAssertEqual(last, 99_999)
        XCTAssertTrue(completed)
    }

    func testRange_HundredThousandWithRecursiveSchedulingDoesNotOverflowTheStack() {
        var count = 0
        var completed = false
        _ = Observable.range(start: 0, count: 100_000, scheduler: RecursiveTrampolineScheduler()).subscribe(
            onNext: { _ in
                count += 1
            },
            onCompleted: {
                completed = true
            })
        XCTAssertEqual(count, 100_000)
        XCTAssertTrue(completed)
    }

    func testRange_ThroughOperatorsOnCurrentThread() {
        var sum = 0
        _ = Observable.range(start: 0, count: 1000).map { $0 * 2 }.filter { $0 % 3 == 0 }.subscribe(onNext: { sum += $0 })
        XCTAssertEqual(sum, (0..<1000).map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +))
    }

    func testRange_DisposeFromInsideOnNextOnCurrentThread() {
        nonisolated(unsafe) var received: [Int] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            var subscription: Disposable?
            subscription = Observable.range(start: 0, count: 1_000_000).subscribe(onNext: { value in
                received.append(value)
                if value == 3 {
                    subscription?.dispose()
                }
            })
            return Disposables.create()
        }
        XCTAssertEqual(received, [0, 1, 2, 3])
    }
}
