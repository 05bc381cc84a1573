/// A virtual-time scheduler whose clock is an `RxTime`, for replaying
/// historical data or running time-based code without waiting.
///
/// Nothing runs until `start()` or `advanceTo(_:)`; the clock then jumps from
/// one scheduled item to the next. Work scheduled for "now" runs at the
/// current time (there is no simulated processing delay, unlike
/// `TestScheduler`).
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    /// Creates a scheduler whose clock starts at `initialClock` (by default
    /// the clock's origin, as RxSwift starts at the 1970 epoch).
    public init(initialClock: RxTime = .zero) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}
