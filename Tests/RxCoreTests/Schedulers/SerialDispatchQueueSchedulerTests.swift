import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

/// Real-time tests: every wait is bounded by a semaphore timeout, and no test
/// asserts how long something took beyond "not before it was due".
final class SerialDispatchQueueSchedulerTests: RxCoreTestCase {
    private static let key = DispatchSpecificKey<String>()

    private func makeScheduler(_ name: String = "rxcore.test.serial") -> SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(
            internalSerialQueueName: name,
            serialQueueConfiguration: { queue in
                queue.setSpecific(key: Self.key, value: name)
            })
    }

    private static func isOnQueue(_ name: String) -> Bool {
        DispatchQueue.getSpecific(key: Self.key) == name
    }

    func testSerialDispatchQueueScheduler_NowIsMonotonic() {
        let scheduler = makeScheduler()
        var previous = scheduler.now
        for _ in 0..<1000 {
            let current = scheduler.now
            XCTAssertGreaterThanOrEqual(current, previous)
            previous = current
        }
        let before = scheduler.now
        usleep(2_000)
        XCTAssertGreaterThan(scheduler.now, before)
    }

    func testSerialDispatchQueueScheduler_ScheduleRunsOnTheQueueInOrder() {
        let scheduler = makeScheduler("rxcore.test.serial.order")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var order: [Int] = []
        nonisolated(unsafe) var allOnQueue = true
        for index in 0..<100 {
            _ = scheduler.schedule(index) { index in
                if !Self.isOnQueue("rxcore.test.serial.order") { allOnQueue = false }
                order.append(index)
                if index == 99 { done.signal() }
                return Disposables.create()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(order, Array(0..<100))
        XCTAssertTrue(allOnQueue)
    }

    func testSerialDispatchQueueScheduler_DisposeBeforeRunCancels() {
        let scheduler = makeScheduler()
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            gate.wait()
            return Disposables.create()
        }
        let ran = ManagedCounter()
        let cancelled = scheduler.schedule(()) { _ in
            ran.increment()
            return Disposables.create()
        }
        cancelled.dispose()
        gate.signal()
        let drained = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            drained.signal()
            return Disposables.create()
        }
        XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(ran.current, 0)
    }

    func testSerialDispatchQueueScheduler_DisposeAfterRunDisposesTheActionsDisposable() {
        let scheduler = makeScheduler()
        let ran = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let disposable = scheduler.schedule(()) { _ in
            ran.signal()
            return Disposables.create { disposed.signal() }
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
        disposable.dispose()
        XCTAssertEqual(disposed.wait(timeout: .now() + 10), .success)
    }

    func testSerialDispatchQueueScheduler_ScheduleRelativeRunsOnTheQueueNotBeforeDue() {
        let scheduler = makeScheduler("rxcore.test.serial.relative")
        let done = DispatchSemaphore(value: 0)
        let start = scheduler.now
        nonisolated(unsafe) var ranAt: RxTime?
        nonisolated(unsafe) var onQueue = false
        let disposable = scheduler.scheduleRelative((), dueTime: .milliseconds(50)) { _ in
            ranAt = scheduler.now
            onQueue = Self.isOnQueue("rxcore.test.serial.relative")
            done.signal()
            return Disposables.create()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(onQueue)
        let elapsed = ranAt.map { $0.timeIntervalSince(start) } ?? .never
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(40))
        disposable.dispose()
    }

    func testSerialDispatchQueueScheduler_ScheduleRelativeDisposeCancelsTheTimer() {
        let scheduler = makeScheduler()
        let ran = ManagedCounter()
        let disposable = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            ran.increment()
            return Disposables.create()
        }
        disposable.dispose()
        // A later timer on the same queue has fired: the cancelled one would have too.
        let later = DispatchSemaphore(value: 0)
        let check = scheduler.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            later.signal()
            return Disposables.create()
        }
        XCTAssertEqual(later.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(ran.current, 0)
        check.dispose()
    }

    func testSerialDispatchQueueScheduler_ScheduleRelativeNegativeOrZeroRunsSoon() {
        let scheduler = makeScheduler()
        let done = DispatchSemaphore(value: 0)
        let first = scheduler.scheduleRelative((), dueTime: .milliseconds(-5)) { _ in
            done.signal()
            return Disposables.create()
        }
        let second = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
            done.signal()
            return Disposables.create()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        first.dispose()
        second.dispose()
    }

    func testSerialDispatchQueueScheduler_ScheduleRelativeNeverDoesNotRun() {
        let scheduler = makeScheduler()
        let ran = ManagedCounter()
        let disposable = scheduler.scheduleRelative((), dueTime: .never) { _ in
            ran.increment()
            return Disposables.create()
        }
        usleep(20_000)
        XCTAssertEqual(ran.current, 0)
        disposable.dispose()
    }

    func testSerialDispatchQueueScheduler_SchedulePeriodicThreadsStateAndStopsOnDispose() {
        let scheduler = makeScheduler("rxcore.test.serial.periodic")
        let reachedFive = DispatchSemaphore(value: 0)
        let runs = ManagedCounter()
        nonisolated(unsafe) var seen: [Int] = []
        nonisolated(unsafe) var allOnQueue = true
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) { state in
            if !Self.isOnQueue("rxcore.test.serial.periodic") { allOnQueue = false }
            seen.append(state)
            if runs.increment() == 5 { reachedFive.signal() }
            return state + 1
        }
        XCTAssertEqual(reachedFive.wait(timeout: .now() + 10), .success)
        disposable.dispose()
        // Let any run that was already under way finish, then check that none follows.
        let drained = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            drained.signal()
            return Disposables.create()
        }
        XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
        let stopped = runs.current
        usleep(50_000)
        XCTAssertEqual(runs.current, stopped)
        let drainedAgain = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            drainedAgain.signal()
            return Disposables.create()
        }
        XCTAssertEqual(drainedAgain.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen, Array(0..<stopped))
        XCTAssertTrue(allOnQueue)
    }

    func testSerialDispatchQueueScheduler_TargetQueueInitialiserIsSerial() {
        let target = DispatchQueue(label: "rxcore.test.target", attributes: .concurrent)
        let scheduler = SerialDispatchQueueScheduler(queue: target, internalSerialQueueName: "rxcore.test.serial.target")
        let done = DispatchSemaphore(value: 0)
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        nonisolated(unsafe) var order: [Int] = []
        for index in 0..<200 {
            _ = scheduler.schedule(index) { index in
                if inside.increment() != 1 { overlaps.increment() }
                order.append(index)
                inside.decrement()
                if index == 199 { done.signal() }
                return Disposables.create()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(order, Array(0..<200))
    }

    func testSerialDispatchQueueScheduler_QoSInitialiser() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            done.signal()
            return Disposables.create()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    }

    func testSerialDispatchQueueScheduler_ReleasesTheActionAfterCancel() {
        final class Tracked {
            let released: DispatchSemaphore
            init(_ released: DispatchSemaphore) { self.released = released }
            deinit { released.signal() }
        }
        let scheduler = makeScheduler()
        let released = DispatchSemaphore(value: 0)
        var tracked: Tracked? = Tracked(released)
        let disposable = scheduler.scheduleRelative(tracked!, dueTime: .seconds(60)) { _ in
            Disposables.create()
        }
        tracked = nil
        disposable.dispose()
        XCTAssertEqual(released.wait(timeout: .now() + 10), .success)
    }

    func testSerialDispatchQueueScheduler_DrivesTimeOperators() {
        let scheduler = makeScheduler("rxcore.test.serial.operators")
        let subject = PublishSubject<Int>()
        let done = DispatchSemaphore(value: 0)
        var received: [Int] = []
        var allOnQueue = true
        let subscription =
            subject
            .delay(.milliseconds(5), scheduler: scheduler)
            .subscribe(
                onNext: { value in
                    if !Self.isOnQueue("rxcore.test.serial.operators") { allOnQueue = false }
                    received.append(value)
                },
                onCompleted: { done.signal() }
            )
        for value in 0..<20 {
            subject.onNext(value)
        }
        subject.onCompleted()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(received, Array(0..<20))
        XCTAssertTrue(allOnQueue)
        subscription.dispose()
    }
}
