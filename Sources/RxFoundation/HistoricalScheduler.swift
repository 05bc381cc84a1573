#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RxSwift's virtual-time scheduler whose clock is a `Date`, for replaying
/// historical data or running time-based code without waiting.
///
/// Nothing runs until `start()` or `advanceTo(_:)`; the clock then jumps
/// from one scheduled item to the next. Work scheduled for "now" runs at the
/// current time (there is no simulated processing delay, unlike RxTest's
/// `TestScheduler`). `clock` and `now` are `Date`s; used as a
/// `SchedulerType` (by an operator), `now` is the same time as an
/// `RxCore.RxTime`, nanoseconds since 1970.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    /// Creates a scheduler whose clock starts at `initialClock` (by default
    /// 1970-01-01 00:00:00 UTC, as in RxSwift).
    public init(initialClock: Date = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}
