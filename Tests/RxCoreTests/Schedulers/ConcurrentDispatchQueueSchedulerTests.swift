import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

/// Real-time tests: every wait is bounded by a semaphore timeout.
final class ConcurrentDispatchQueueSchedulerTests: RxCoreTestCase {
    func testConcurrentDispatchQueueScheduler_RunsActionsInParallel() {
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rxcore.test.concurrent.parallel", attributes: .concurrent))
        let firstStarted = DispatchSemaphore(value: 0)
        let secondRan = DispatchSemaphore(value: 0)
        let firstFinished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var secondSeenByFirst = false
        _ = scheduler.schedule(()) { _ in
            firstStarted.signal()
            // Only possible if the second action runs while this one is still running.
            secondSeenByFirst = secondRan.wait(timeout: .now() + 10) == .success
            firstFinished.signal()
            return Disposables.create()
        }
        XCTAssertEqual(firstStarted.wait(timeout: .now() + 10), .success)
        _ = scheduler.schedule(()) { _ in
            secondRan.signal()
            return Disposables.create()
        }
        XCTAssertEqual(firstFinished.wait(timeout: .now() + 20), .success)
        XCTAssertTrue(secondSeenByFirst)
    }

    func testConcurrentDispatchQueueScheduler_NowIsMonotonic() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        var previous = scheduler.now
        for _ in 0..<1000 {
            let current = scheduler.now
            XCTAssertGreaterThanOrEqual(current, previous)
            previous = current
        }
    }

    func testConcurrentDispatchQueueScheduler_ScheduleRelativeRunsNotBeforeDue() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let done = DispatchSemaphore(value: 0)
        let start = scheduler.now
        nonisolated(unsafe) var ranAt: RxTime?
        let disposable = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            ranAt = scheduler.now
            done.signal()
            return Disposables.create()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let elapsed = ranAt.map { $0.timeIntervalSince(start) } ?? .never
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(20))
        disposable.dispose()
    }

    func testConcurrentDispatchQueueScheduler_DisposeCancelsRelativeAndImmediateWork() {
        let queue = DispatchQueue(label: "rxcore.test.concurrent.cancel", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let ran = ManagedCounter()
        let gate = DispatchSemaphore(value: 0)
        // A barrier holds the queue so that the immediate action cannot start yet.
        queue.async(flags: .barrier) { gate.wait() }
        let immediate = scheduler.schedule(()) { _ in
            ran.increment()
            return Disposables.create()
        }
        let relative = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            ran.increment()
            return Disposables.create()
        }
        immediate.dispose()
        relative.dispose()
        gate.signal()
        let later = DispatchSemaphore(value: 0)
        let check = scheduler.scheduleRelative((), dueTime: .milliseconds(80)) { _ in
            later.signal()
            return Disposables.create()
        }
        XCTAssertEqual(later.wait(timeout: .now() + 10), .success)
        queue.sync(flags: .barrier) {}
        XCTAssertEqual(ran.current, 0)
        check.dispose()
    }

    func testConcurrentDispatchQueueScheduler_SchedulePeriodicStopsOnDispose() {
        let queue = DispatchQueue(label: "rxcore.test.concurrent.periodic", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let reachedThree = DispatchSemaphore(value: 0)
        let runs = ManagedCounter()
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) { state in
            if runs.increment() == 3 { reachedThree.signal() }
            return state + 1
        }
        XCTAssertEqual(reachedThree.wait(timeout: .now() + 10), .success)
        disposable.dispose()
        queue.sync(flags: .barrier) {}
        let stopped = runs.current
        usleep(40_000)
        queue.sync(flags: .barrier) {}
        XCTAssertEqual(runs.current, stopped)
    }

    func testConcurrentDispatchQueueScheduler_DrivesTimeOperators() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subject = PublishSubject<Int>()
        let done = DispatchSemaphore(value: 0)
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        var received: [[Int]] = []
        let subscription =
            subject
            .buffer(timeSpan: .seconds(60), count: 2, scheduler: scheduler)
            .observe(on: scheduler)
            .subscribe(
                onNext: { value in
                    if inside.increment() != 1 { overlaps.increment() }
                    received.append(value)
                    inside.decrement()
                },
                onCompleted: { done.signal() }
            )
        for value in 0..<10 {
            subject.onNext(value)
        }
        subject.onCompleted()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(received, [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], []])
        subscription.dispose()
    }
}
