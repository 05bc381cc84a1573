import Foundation
import RxCoreTestSupport
import RxFoundation
import RxTest
import Synchronization
import XCTest

// This file imports RxFoundation and not RxCore, as ported RxSwift code
// does: `RxTime` is `Date` here, and every `now` below that meets a `Date`
// is one.

/// RxSwift's TestVirtualScheduler converter, as RxSwift's tests write it:
/// one virtual tick is 10 seconds, times are `RxTime`s (`Date`s).
private struct TenSecondTicks: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * 10.0)
    }

    func convertToVirtualTime(_ time: RxTime) -> Int {
        Int(time.timeIntervalSince1970 / 10.0)
    }

    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval * 10)
    }

    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int(timeInterval / 10.0)
    }

    func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}

private final class TestVirtualScheduler: VirtualTimeScheduler<TenSecondTicks>, @unchecked Sendable {
    init(initialClock: Int = 0) {
        super.init(initialClock: initialClock, converter: TenSecondTicks())
    }
}

final class RxSwiftTimeSpellingTests: RxCoreTestCase {
    func testRxTime_IsDate() {
        func now() -> RxTime { Date() }
        let before = Date()
        let time: RxTime = now()
        XCTAssertTrue(RxTime.self == Date.self)
        XCTAssertGreaterThanOrEqual(time, before)
    }

    /// RxSwift's VirtualSchedulerTest, on a converter written with `RxTime`.
    func testVirtualScheduler_NowIsTheConvertersDate() {
        let scheduler = TestVirtualScheduler(initialClock: 10)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 100.0))
        XCTAssertEqual(scheduler.clock, 10)
        let time = scheduler.now
        let asDate: Date = time
        XCTAssertEqual(asDate.timeIntervalSince1970, 100)
    }

    func testVirtualScheduler_ScheduleRelative() {
        let scheduler = TestVirtualScheduler()
        nonisolated(unsafe) var times: [Int] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            times.append(scheduler.clock)
            _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
            return scheduler.schedule(()) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [1, 1, 3])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 30))
    }

    func testVirtualScheduler_DisposeBeforeStart() {
        let scheduler = TestVirtualScheduler()
        nonisolated(unsafe) var ran = false
        let disposable = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            ran = true
            return Disposables.create()
        }
        disposable.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testVirtualScheduler_AdvanceToAndSleep() {
        let scheduler = TestVirtualScheduler()
        nonisolated(unsafe) var times: [Int] = []
        for ticks in [1, 2, 5] {
            _ = scheduler.scheduleAbsoluteVirtual((), time: ticks) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
        }
        scheduler.advanceTo(2)
        XCTAssertEqual(times, [1, 2])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 20))
        scheduler.sleep(1)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 30))
        scheduler.start()
        XCTAssertEqual(times, [1, 2, 5])
    }

    /// The dispatch schedulers and the main scheduler answer `now` with the
    /// wall clock where a `Date` is asked for, as RxSwift's do.
    func testDispatchSchedulers_NowAsADate() {
        let schedulers: [any SchedulerType] = [
            SerialDispatchQueueScheduler(qos: .default),
            ConcurrentDispatchQueueScheduler(qos: .default),
            MainScheduler.instance,
        ]
        for scheduler in schedulers {
            let before = Date()
            let now: Date = scheduler.now
            XCTAssertLessThanOrEqual(before, now)
            XCTAssertLessThanOrEqual(now, Date())
        }
        XCTAssertLessThanOrEqual(MainScheduler.instance.now, Date())
    }

    /// Generic code asking a scheduler for a `Date` gets a virtual clock
    /// where there is one.
    func testSchedulerType_NowAsADateInGenericCode() {
        func stamp(_ scheduler: some SchedulerType) -> Date { scheduler.now }
        func stampAny(_ scheduler: any SchedulerType) -> Date { scheduler.now }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(stamp(HistoricalScheduler(initialClock: date)), date)
        XCTAssertEqual(stampAny(HistoricalScheduler(initialClock: date)), date)
        let testScheduler = TestScheduler(initialClock: 0)
        testScheduler.advanceTo(300)
        XCTAssertEqual(stamp(testScheduler), Date(timeIntervalSince1970: 300))
        XCTAssertEqual(testScheduler.now, Date(timeIntervalSince1970: 300))
        let before = Date()
        XCTAssertLessThanOrEqual(before, stamp(SerialDispatchQueueScheduler(qos: .default)))
    }

    /// RxCore's own time stays reachable by its full name, with the
    /// conversions.
    func testRxCoreTime_Conversions() {
        let date = Date(timeIntervalSince1970: 1.5)
        XCTAssertEqual(RxCore.RxTime(date), RxCore.RxTime(nanoseconds: 1_500_000_000))
        XCTAssertEqual(RxCore.RxTime(nanoseconds: 1_500_000_000).date, date)
        XCTAssertEqual(Date(rxTime: RxCore.RxTime(nanoseconds: 1_500_000_000)), date)
    }

    /// A scheduler of one's own declares RxCore's time: the one spelling
    /// that changes from RxSwift (`var now: RxTime { Date() }` there).
    func testCustomScheduler_DeclaresRxCoreTime() {
        let scheduler = WallClockScheduler(inner: SerialDispatchQueueScheduler(qos: .default))
        let done = expectation(description: "ticks")
        nonisolated(unsafe) var ticks: [Int] = []
        let subscription = Observable<Int>.interval(.milliseconds(5), scheduler: scheduler).take(3)
            .subscribe(onNext: { ticks.append($0) }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(ticks, [0, 1, 2])
        XCTAssertLessThanOrEqual(scheduler.now, Date())
    }
}

/// A custom scheduler as a ported RxSwift file writes it.
private final class WallClockScheduler: SchedulerType {
    let inner: SerialDispatchQueueScheduler

    init(inner: SerialDispatchQueueScheduler) {
        self.inner = inner
    }

    var now: RxCore.RxTime { RxCore.RxTime(Date()) }

    func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        inner.schedule(state, action: action)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        inner.scheduleRelative(state, dueTime: dueTime, action: action)
    }
}
