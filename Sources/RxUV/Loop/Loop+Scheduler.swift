internal import CLibUV
import RxCore
import Synchronization

/// `Loop` as an RxCore scheduler: immediate work goes through `execute`,
/// delayed and periodic work runs on one `uv_timer_t` each, so `delay`,
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
        let scheduled = ScheduledOnLoop()
        // The state goes to the action on the loop thread: the scheduler
        // contract. (Not a generic box: its metadata would be looked up on
        // every call.)
        nonisolated(unsafe) let state = state
        execute {
            guard !scheduled.isDisposed else { return }
            scheduled.setResult(action(state))
        }
        return scheduled
    }

    /// Runs `action` on the loop thread after `dueTime`, on its own
    /// `uv_timer_t` (rounded up to whole milliseconds).
    ///
    /// - Returns: a disposable that stops and closes the timer if it has not
    ///   fired, and otherwise disposes what the action returned. Safe from any
    ///   thread. The corresponding libuv function is `uv_timer_start`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let scheduled = ScheduledOnLoop()
        // The state goes to the action on the loop thread: the scheduler
        // contract. (Not a generic box: its metadata would be looked up on
        // every call.)
        nonisolated(unsafe) let state = state
        startTimer(for: scheduled, after: dueTime, repeating: nil) { timer in
            timer.close()
            guard !scheduled.isDisposed else { return }
            scheduled.setResult(action(state))
        }
        return scheduled
    }

    /// Runs `action` on the loop thread first after `startAfter`, then every
    /// `period`, on one repeating `uv_timer_t`.
    ///
    /// - Returns: a disposable that stops and closes the timer. Safe from any thread.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping @Sendable (StateType) -> StateType) -> Disposable {
        let scheduled = ScheduledOnLoop()
        // Each run's state feeds the next; the runs are on the loop thread.
        let current = LoopBound(state, loop: self)
        startTimer(for: scheduled, after: startAfter, repeating: period) { _ in
            guard !scheduled.isDisposed else { return }
            current.value = action(current.value)
        }
        return scheduled
    }
}

extension Loop {
    /// On the loop thread, unless `scheduled` is disposed first: opens a
    /// timer owned by `scheduled` that calls `onFire` with itself after
    /// `dueTime` (then every `period`). A timer that cannot be started
    /// disposes `scheduled` and goes to `Hooks.defaultErrorHandler`.
    private func startTimer(for scheduled: ScheduledOnLoop, after dueTime: RxTimeInterval, repeating period: RxTimeInterval?, onFire: @escaping @Sendable (UVTimer) -> Void) {
        onLoopThread { [unowned self] in
            guard !scheduled.isDisposed else { return }
            do throws(UVError) {
                let timer = try UVTimer(loop: self)
                timer.onFire = onFire
                scheduled.setTimer(timer)
                try timer.start(timeout: dueTime, repeating: period)
            } catch {
                scheduled.dispose()
                Hooks.defaultErrorHandler(error)
            }
        }
    }
}

/// The disposable of work scheduled on a loop: cancels it before it runs,
/// closes its timer (on the loop thread), and disposes the action's result.
final class ScheduledOnLoop: Cancelable {
    // @unchecked Sendable: the timer is only stored here, under the lock, so
    // that a dispose from any thread can take it; it is closed through
    // `closeFromAnyThread`, which hops to the loop thread.
    private struct State: @unchecked Sendable {
        var isDisposed = false
        var timer: UVTimer?
        var result: Disposable?
    }

    private let state = Mutex(State())

    init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Records the timer; closes it at once if already disposed. Loop thread.
    func setTimer(_ timer: UVTimer) {
        let adopted = UncheckedSendable(timer)
        let closeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.timer = adopted.value
            return false
        }
        if closeNow {
            timer.close()
        }
    }

    /// Records what the action returned; disposes it if already disposed.
    func setResult(_ result: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.result = result
            return false
        }
        if disposeNow {
            result.dispose()
        }
    }

    func dispose() {
        let (timer, result) = state.withLock { state -> (UVTimer?, Disposable?) in
            if state.isDisposed { return (nil, nil) }
            state.isDisposed = true
            defer {
                state.timer = nil
                state.result = nil
            }
            return (state.timer, state.result)
        }
        timer?.closeFromAnyThread()
        result?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
