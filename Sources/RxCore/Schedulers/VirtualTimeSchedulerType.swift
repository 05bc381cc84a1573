/// A scheduler that tells `now` from a virtual clock.
///
/// ``VirtualTimeScheduler`` conforms; its `now` (the ``SchedulerType``
/// requirement) is given here, from ``clockTime``, rather than in the class,
/// so that a subclass can offer a `now` of its own type beside it: RxSwift's
/// `HistoricalScheduler` answers `now` with a `Date`, and RxFoundation's
/// does too. Through ``SchedulerType`` (an operator, a generic function)
/// `now` is always this ``RxTime``.
public protocol VirtualTimeSchedulerType: SchedulerType {
    /// The virtual clock's current time, as real time.
    var clockTime: RxTime { get }
}

extension VirtualTimeSchedulerType {
    /// The scheduler's current time: ``clockTime``.
    public var now: RxTime { clockTime }
}
