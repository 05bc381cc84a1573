/// A scheduler that tells `now` from a virtual clock.
///
/// ``VirtualTimeScheduler`` conforms; its `now` (the ``SchedulerType``
/// requirement) is given here, from ``clockTime``, so that the class can
/// offer `now` in its converter's real-time type beside it, as RxSwift's
/// does: a `Date` for `HistoricalScheduler`. Through ``SchedulerType`` (an
/// operator, a generic function) `now` is always this ``RxTime``.
public protocol VirtualTimeSchedulerType: SchedulerType {
    /// The virtual clock's current time, as real time.
    var clockTime: RxTime { get }
}

extension VirtualTimeSchedulerType {
    /// The scheduler's current time: ``clockTime``.
    public var now: RxTime { clockTime }
}
