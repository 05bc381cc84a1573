import FoundationEssentials
import RxCoreTestSupport
import RxFoundation
import RxTest
import XCTest

final class HistoricalSchedulerTests: RxCoreTestCase {
    private func time(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    func testHistoricalScheduler_StartsAtTheOriginByDefault() {
        let scheduler = HistoricalScheduler()
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0))
        XCTAssertEqual(scheduler.clock, Date(timeIntervalSince1970: 0))
        XCTAssertEqual(HistoricalScheduler(initialClock: time(7)).now, time(7))
    }

    func testHistoricalScheduler_RunsWorkInTimeOrder() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var log: [(Date, String)] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            log.append((scheduler.now, "b"))
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            log.append((scheduler.now, "a"))
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual((), time: time(10)) { _ in
            log.append((scheduler.now, "c"))
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(log.map(\.0), [time(5), time(10), time(10)])
        XCTAssertEqual(log.map(\.1), ["a", "b", "c"])
        XCTAssertEqual(scheduler.now, time(10))
    }

    func testHistoricalScheduler_ScheduleRunsAtTheCurrentTime() {
        let scheduler = HistoricalScheduler(initialClock: time(100))
        nonisolated(unsafe) var ranAt: Date?
        _ = scheduler.schedule(()) { _ in
            ranAt = scheduler.now
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ranAt, time(100))
    }

    func testHistoricalScheduler_DisposedWorkDoesNotRun() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var ran = false
        let disposable = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
            ran = true
            return Disposables.create()
        }
        disposable.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testHistoricalScheduler_AdvanceToRunsDueWorkOnly() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var ran: [Int] = []
        for second in [1, 2, 3, 4] {
            _ = scheduler.scheduleRelative((), dueTime: .seconds(second)) { _ in
                ran.append(second)
                return Disposables.create()
            }
        }
        scheduler.advanceTo(time(2))
        XCTAssertEqual(ran, [1, 2])
        XCTAssertEqual(scheduler.now, time(2))
        scheduler.advanceTo(time(10))
        XCTAssertEqual(ran, [1, 2, 3, 4])
        XCTAssertEqual(scheduler.now, time(10))
    }

    func testHistoricalScheduler_SleepMovesTheClockWithoutRunningWork() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var ran = false
        _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
            ran = true
            return Disposables.create()
        }
        scheduler.sleep(5)
        XCTAssertFalse(ran)
        XCTAssertEqual(scheduler.now, time(5))
        scheduler.start()
        XCTAssertTrue(ran)
        XCTAssertEqual(scheduler.now, time(5))
    }

    func testHistoricalScheduler_StopEndsTheRun() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var ran: [Int] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
            ran.append(1)
            scheduler.stop()
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(2)) { _ in
            ran.append(2)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ran, [1])
        scheduler.start()
        XCTAssertEqual(ran, [1, 2])
    }

    func testHistoricalScheduler_SchedulePeriodic() {
        let scheduler = HistoricalScheduler()
        nonisolated(unsafe) var times: [Date] = []
        nonisolated(unsafe) var disposable: Disposable?
        disposable = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(5)) { state in
            times.append(scheduler.now)
            if state == 3 { disposable?.dispose() }
            return state + 1
        }
        scheduler.start()
        XCTAssertEqual(times, [time(10), time(15), time(20), time(25)])
    }

    func testHistoricalScheduler_DrivesTimeOperators() {
        let scheduler = HistoricalScheduler()
        let subject = PublishSubject<Int>()
        var received: [(Date, Int)] = []
        let subscription =
            subject
            .debounce(.milliseconds(500), scheduler: scheduler)
            .subscribe(onNext: { received.append((scheduler.now, $0)) })
        _ = scheduler.scheduleAbsoluteVirtual((), time: time(1)) { _ in
            subject.onNext(1)
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual((), time: time(1).addingTimeInterval(0.2)) { _ in
            subject.onNext(2)
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual((), time: time(3)) { _ in
            subject.onNext(3)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(received.map(\.1), [2, 3])
        XCTAssertEqual(received.map(\.0), [time(1).addingTimeInterval(0.7), time(3).addingTimeInterval(0.5)])
        subscription.dispose()
    }

    /// RxSwift's spelling: a `Date` clock, `TimeInterval` sleeps and
    /// offsets, and `now` a `Date`; through `SchedulerType`, `now` is the
    /// same time in nanoseconds since 1970.
    func testHistoricalScheduler_DateClock() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        let now: Date = scheduler.now
        XCTAssertEqual(now, start)
        XCTAssertEqual(schedulerNow(scheduler), RxCore.RxTime(nanoseconds: 1_700_000_000_000_000_000))
        nonisolated(unsafe) var ranAt: [Date] = []
        _ = scheduler.scheduleRelativeVirtual((), dueTime: 2.5) { _ in
            ranAt.append(scheduler.now)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1500)) { _ in
            ranAt.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ranAt, [start.addingTimeInterval(1.5), start.addingTimeInterval(2.5)])
        XCTAssertEqual(scheduler.now.timeIntervalSince(start), 2.5)
    }

    private func schedulerNow(_ scheduler: some SchedulerType) -> RxCore.RxTime {
        scheduler.now
    }
}
