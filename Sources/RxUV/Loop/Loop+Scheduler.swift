internal import CLibUV
@_spi(Bridge) import RxCore

/// `Loop` as an RxCore scheduler: immediate work goes through `execute`,
/// delayed and periodic work runs on the loop's timers (one `uv_timer_t`
/// for all of them, `LoopTimerQueue`), so `delay`,
/// `debounce`, `throttle`, `timeout`, `interval`, `timer`, `buffer`, `window`,
/// `sample` and `take(for:)` all run on the loop thread.
extension Loop: SchedulerType {
    /// The loop's clock (`uv_now`, milliseconds, updated once per iteration),
    /// as nanoseconds from an arbitrary origin.
    public var now: RxTime {
        RxTime(nanoseconds: Int64(uv_now(raw)) &* 1_000_000)
    }

    /// Runs `action` on the loop thread during the next loop iteration.
    ///
    /// - Returns: a disposable that cancels the action if it has not run yet,
    ///   and otherwise disposes what it returned. Safe from any thread.
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let scheduled = ScheduledAction(loop: self, dueTime: nil, period: nil, action: nil)
        // The state goes to the action on the loop thread: the scheduler
        // contract. (Not a generic box: its metadata would be looked up on
        // every call.)
        nonisolated(unsafe) let state = state
        if !execute({ scheduled.run { action(state) } }) {
            scheduled.loopClosed("Loop.schedule")
        }
        return scheduled
    }

    /// Runs `action` on the loop thread after `dueTime` (rounded up to whole
    /// milliseconds), on one of the loop's timers: all of them share one
    /// `uv_timer_t` and expire in libuv's order (due time, then start order).
    ///
    /// - Returns: a disposable that stops and closes the timer if it has not
    ///   fired, and otherwise disposes what the action returned. Safe from any
    ///   thread. A timer that cannot start is reported to the loop's logger
    ///   (`Loop.logger`).
    ///   The corresponding libuv function is `uv_timer_start`.
    ///
    /// `SchedulerType`'s requirement, with RxSwift's `RxTimeInterval`; the
    /// overload beside it takes `Duration`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        // See `schedule`.
        nonisolated(unsafe) let state = state
        let scheduled = ScheduledAction(loop: self, dueTime: dueTime, period: nil) { action(state) }
        scheduled.start("uv_timer_start")
        return scheduled
    }

    /// Runs `action` on the loop thread first after `startAfter`, then every
    /// `period`, on one repeating timer of the loop's (see
    /// `scheduleRelative`).
    ///
    /// - Returns: a disposable that stops and closes the timer. Safe from any
    ///   thread. A timer that cannot start is reported to the loop's logger
    ///   (`Loop.logger`).
    ///
    /// `SchedulerType`'s requirement, with RxSwift's `RxTimeInterval`; the
    /// overload beside it takes `Duration`.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        // Each run's state feeds the next; the runs are on the loop thread.
        nonisolated(unsafe) var current = state
        let scheduled = ScheduledAction(loop: self, dueTime: startAfter, period: period) {
            current = action(current)
            return nil
        }
        scheduled.start("uv_timer_start")
        return scheduled
    }

    /// `scheduleRelative(_:dueTime:action:)` with a `Duration`: runs
    /// `action` on the loop thread after `dueTime` (rounded up to whole
    /// milliseconds), on one of the loop's timers (`uv_timer_start`).
    ///
    /// - Returns: a disposable that stops and closes the timer if it has not
    ///   fired, and otherwise disposes what the action returned. Safe from
    ///   any thread.
    @_disfavoredOverload
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: Duration, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: RxTimeInterval(dueTime), action: action)
    }

    /// `schedulePeriodic(_:startAfter:period:action:)` with `Duration`s:
    /// runs `action` on the loop thread first after `startAfter`, then every
    /// `period`, on one repeating timer of the loop's (`uv_timer_start`).
    ///
    /// - Returns: a disposable that stops and closes the timer. Safe from
    ///   any thread.
    @_disfavoredOverload
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: Duration, period: Duration, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        schedulePeriodic(state, startAfter: RxTimeInterval(startAfter), period: RxTimeInterval(period), action: action)
    }
}

/// Where a scheduled action's errors go: nobody subscribes to a scheduled
/// action, so a timer that cannot start is reported (to the loop's
/// logger).
struct UnobservedErrors: ObserverType {
    typealias Element = Never

    /// The loop the action is scheduled on: it reports only on that loop's
    /// thread, while the loop runs it.
    unowned(unsafe) let loop: Loop

    func on(_ event: Event<Never>) {
        if case .error(let error) = event {
            report(error, ReportContext(loop: loop, handle: "timer"))
        }
    }
}

/// The disposable of work scheduled on a loop, a handle-owning subscription
/// like any other: it owns the timer of a delayed or periodic action
/// (it is the timer's target), cancels the action if disposed before it
/// runs, and disposes what the action returned.
final class ScheduledAction: HandleSink<UnobservedErrors>, UVTimerTarget, @unchecked Sendable {
    /// The timer's timeout and period in libuv's milliseconds (period 0:
    /// once): half the size of two optional intervals, per scheduled action.
    private let timeout: UInt64
    private let period: UInt64
    /// The timed action: returns the disposable of a one-shot action, `nil`
    /// for a periodic one.
    private let action: (() -> Disposable?)?
    // Loop-thread state: what the action returned.
    private var result: Disposable?

    init(loop: Loop, dueTime: RxTimeInterval?, period: RxTimeInterval?, action: (() -> Disposable?)?) {
        self.timeout = LoopTimer.milliseconds(dueTime ?? .never)
        self.period = LoopTimer.periodMilliseconds(period)
        self.action = action
        super.init(loop: loop, observer: UnobservedErrors(loop: loop), cancel: nil)
    }

    override func open() throws(UVError) {
        let timer = LoopTimer(loop: loop)
        try timer.start(milliseconds: timeout, periodMilliseconds: period)
        timer.target = self
        own(timer)
    }

    func timerFired() {
        if period == 0 {
            releaseOwned()
        }
        if let action {
            run(action)
        }
    }

    /// Runs `action` unless disposed, and keeps what it returns until
    /// disposed (disposes it at once if the action disposed this). Loop thread.
    func run(_ action: () -> Disposable?) {
        guard !isDisposed else { return }
        guard let returned = action() else { return }
        if isDisposed {
            returned.dispose()
        } else {
            result = returned
        }
    }

    override func didRelease() {
        let result = self.result
        self.result = nil
        result?.dispose()
    }
}
