import Synchronization

/// The timer of the current window of `buffer(timeSpan:count:scheduler:)` and
/// `window(timeSpan:count:scheduler:)`, kept in the sink's `Mutex`-protected
/// state: which window is current, its timer, and whether timers have been
/// stopped for good (the subscription was disposed).
struct WindowTimer {
    /// The id of the current window; a timer scheduled for an older window is stale.
    var windowID = 0
    fileprivate var timer: Disposable?
    fileprivate var isStopped = false
}

/// The state of a sink that times its windows with a `WindowTimer`.
protocol WindowTimerState {
    /// The sink's window timer.
    var windowTimer: WindowTimer { get set }
}

extension Mutex where Value: WindowTimerState {
    /// Starts the timer of window `windowID` with `schedule` (run outside the
    /// lock) and disposes the previous window's timer, unless a later window
    /// has started meanwhile (its own timer wins) or the timers are stopped.
    func startWindowTimer(_ windowID: Int, schedule: () -> Disposable) {
        let isCurrent = withLock { !$0.windowTimer.isStopped && $0.windowTimer.windowID == windowID }
        guard isCurrent else { return }
        let timer = schedule()
        let toDispose = withLock { state -> Disposable? in
            if state.windowTimer.isStopped || state.windowTimer.windowID != windowID { return timer }
            defer { state.windowTimer.timer = timer }
            return state.windowTimer.timer
        }
        toDispose?.dispose()
    }

    /// Stops the timers for good and disposes the current one.
    func stopWindowTimer() {
        let timer = withLock { state -> Disposable? in
            state.windowTimer.isStopped = true
            defer { state.windowTimer.timer = nil }
            return state.windowTimer.timer
        }
        timer?.dispose()
    }
}
