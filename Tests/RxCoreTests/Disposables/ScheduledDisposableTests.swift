import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ScheduledDisposableTests: RxCoreTestCase {
    func testScheduledDisposable_DisposesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: Int?
        let inner = Disposables.create { disposedAt = scheduler.clock }
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: inner)
        var innerDisposedAt200: Bool?
        scheduler.scheduleAt(200) {
            scheduled.dispose()
            XCTAssertTrue(scheduled.isDisposed)
            innerDisposedAt200 = inner.isDisposed
        }
        scheduler.start()
        // The inner disposable is disposed by the scheduler, one tick later.
        XCTAssertEqual(innerDisposedAt200, false)
        XCTAssertEqual(disposedAt, 201)
        XCTAssertTrue(scheduled.scheduler is TestScheduler)
    }

    func testScheduledDisposable_IsIdempotent() {
        let scheduler = TestScheduler(initialClock: 0)
        let counter = ManagedCounter()
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: countingDisposable(counter))
        scheduler.scheduleAt(200) {
            scheduled.dispose()
            scheduled.dispose()
        }
        scheduler.scheduleAt(300) { scheduled.dispose() }
        scheduler.start()
        XCTAssertEqual(counter.current, 1)
    }

    func testScheduledDisposable_OnCurrentThreadScheduler() {
        let counter = ManagedCounter()
        let scheduled = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: countingDisposable(counter))
        scheduled.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testScheduledDisposable_DisposeFromManyThreads() {
        let counter = ManagedCounter()
        let scheduled = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: countingDisposable(counter))
        disposeConcurrently(scheduled)
        XCTAssertEqual(counter.current, 1)
        XCTAssertTrue(scheduled.isDisposed)
    }
}
