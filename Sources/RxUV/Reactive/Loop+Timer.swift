@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Emits 0 after `dueTime`, then (with `period`) 1, 2, ... every period;
    /// without a period it completes right after the 0. Durations are rounded
    /// up to whole milliseconds; a period is at least 1 ms.
    ///
    /// Each subscription owns one of the loop's timers: all of them run on
    /// one `uv_timer_t` and expire in libuv's order (due time, then the order
    /// they were started in). Events arrive on the loop thread. Disposing
    /// stops the timer, from any thread, also from inside its own `onNext`.
    /// A timer that cannot be started emits `.error(UVError)`; so does a
    /// subscription from another thread to a closed loop (`EINVAL`). The
    /// corresponding libuv function is `uv_timer_start`.
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func timer(after dueTime: RxTimeInterval, repeating period: RxTimeInterval? = nil) -> Observable<Int> {
        TimerObservable(loop: base, dueTime: dueTime, period: period)
    }

    /// `timer(after:repeating:)` with `Duration`s: emits 0 after `dueTime`,
    /// then (with `period`) 1, 2, ... every period, or completes right after
    /// the 0 without one. The same timer as the `RxTimeInterval` overload's
    /// (`RxTimeInterval(_:)` converts, to the nanosecond; rounded up to
    /// whole milliseconds, a period at least 1 ms): events on the loop
    /// thread, disposing stops it from any thread, `.error(UVError)` when it
    /// cannot start. The corresponding libuv function is `uv_timer_start`.
    @_disfavoredOverload
    public func timer(after dueTime: Duration, repeating period: Duration? = nil) -> Observable<Int> {
        timer(after: RxTimeInterval(dueTime), repeating: period.map(RxTimeInterval.init))
    }
}
