import Dispatch
import Foundation
import RxCoreTestSupport
import RxFoundation
import Synchronization
import XCTest

/// RxSwift's OperationQueueScheduler tests, made deterministic: semaphores
/// hold the queue where RxSwift's sleep.
final class OperationQueueSchedulerTests: RxCoreTestCase {
    private var queue: OperationQueue!

    override func setUp() {
        super.setUp()
        queue = OperationQueue()
    }

    override func tearDown() {
        // Every operation done, so the leak gate sees their closures freed.
        queue.waitUntilAllOperationsAreFinished()
        queue = nil
        super.tearDown()
    }

    /// Holds the queue (one operation at a time) until `release` is
    /// signalled; returns once the holding operation runs.
    private func holdQueue(until release: DispatchSemaphore) {
        let started = DispatchSemaphore(value: 0)
        queue.addOperation {
            started.signal()
            _ = release.wait(timeout: .now() + 10)
        }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
    }

    func test_scheduleWithPriority() {
        queue.maxConcurrentOperationCount = 1
        let high = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        let low = OperationQueueScheduler(operationQueue: queue, queuePriority: .low)
        let order = Mutex<[String]>([])
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        _ = high.schedule(()) { _ in
            order.withLock { $0.append("HIGH") }
            started.signal()
            _ = release.wait(timeout: .now() + 10)
            return Disposables.create()
        }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
        _ = low.schedule(()) { _ in
            order.withLock { $0.append("LOW") }
            return Disposables.create()
        }
        _ = high.schedule(()) { _ in
            order.withLock { $0.append("HIGH") }
            return Disposables.create()
        }
        release.signal()
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.withLock { $0 }, ["HIGH", "HIGH", "LOW"])
    }

    func testOperationQueueScheduler_Properties() {
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        XCTAssertTrue(scheduler.operationQueue === queue)
        XCTAssertEqual(scheduler.queuePriority, .normal)
        XCTAssertEqual(OperationQueueScheduler(operationQueue: queue, queuePriority: .veryHigh).queuePriority, .veryHigh)
    }

    /// Disposed before its operation starts: the operation runs and returns
    /// without the action.
    func testOperationQueueScheduler_DisposeBeforeRunSkipsTheAction() {
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let release = DispatchSemaphore(value: 0)
        holdQueue(until: release)
        let ran = Atomic<Bool>(false)
        let disposable = scheduler.schedule(()) { _ in
            ran.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        disposable.dispose()
        release.signal()
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(ran.load(ordering: .relaxed))
        XCTAssertEqual(queue.operationCount, 0)
    }

    /// Disposed after its action ran: what the action returned is disposed.
    func testOperationQueueScheduler_DisposeAfterRunDisposesWhatTheActionReturned() {
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = DispatchSemaphore(value: 0)
        let disposed = Atomic<Bool>(false)
        let disposable = scheduler.schedule(()) { _ in
            ran.signal()
            return Disposables.create { disposed.store(true, ordering: .relaxed) }
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(disposed.load(ordering: .relaxed))
        disposable.dispose()
        XCTAssertTrue(disposed.load(ordering: .relaxed))
    }

    /// Recursive scheduling: one operation per step, in order.
    func testOperationQueueScheduler_ScheduleRecursive() {
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let steps = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let disposable = scheduler.scheduleRecursive(0) { step, recurse in
            steps.withLock { $0.append(step) }
            if step < 99 {
                recurse(step + 1)
            } else {
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        queue.waitUntilAllOperationsAreFinished()
        disposable.dispose()
        XCTAssertEqual(steps.withLock { $0 }, Array(0..<100))
    }

    /// `observe(on:)` on a concurrent operation queue delivers one event at
    /// a time, in order; it is not a serial dispatch queue, so RxSwift's
    /// counter stays where it was.
    func testObserveOn_OperationQueueScheduler_DeliversSeriallyInOrder() {
        queue.maxConcurrentOperationCount = 8
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        #if TRACE_RESOURCES
        let serialBefore = Resources.numberOfSerialDispatchQueueObservables
        #endif
        let received = Mutex<[Int]>([])
        let inside = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.range(start: 0, count: 1000)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: scheduler)
            .subscribe(
                onNext: { value in
                    if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
                        overlapped.store(true, ordering: .relaxed)
                    }
                    received.withLock { $0.append(value) }
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                },
                onCompleted: { done.signal() })
        #if TRACE_RESOURCES
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, serialBefore)
        #endif
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        queue.waitUntilAllOperationsAreFinished()
        subscription.dispose()
        XCTAssertEqual(received.withLock { $0 }, Array(0..<1000))
        XCTAssertFalse(overlapped.load(ordering: .relaxed))
    }
}
