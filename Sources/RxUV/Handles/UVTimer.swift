internal import CLibUV
import RxCore

/// Receives a timer's expiries: the subscription that owns the timer
/// (`loop.rx.timer`'s sink, a scheduled action), a server's idle sweep, a
/// child process's teardown, and the loop's timer queue for its handle.
protocol UVTimerTarget: AnyObject {
    /// The timer expired. Loop thread.
    func timerFired()
}

/// A `uv_timer_t`: the one handle on which a loop's timers run
/// (`LoopTimerQueue`). At each expiry, on the loop thread, it calls `target`,
/// which it holds until the handle closes.
final class UVTimer: UVHandle, @unchecked Sendable {
    /// Called at each expiry; released when the handle closes.
    var target: UVTimerTarget?

    /// The loop's own handle: not counted open (its timers are) and not
    /// holding the `Loop` object, which owns the queue that owns it.
    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_TIMER, kind: .timer, isLoopInternal: true)
        try adopt("uv_timer_init") { uv_timer_init(loop.raw, timer) }
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> {
        pointer.assumingMemoryBound(to: uv_timer_t.self)
    }

    /// Starts the timer: first expiry after `timeout` milliseconds, then every
    /// `period` (0: once). The corresponding libuv function is
    /// `uv_timer_start`.
    func start(milliseconds timeout: UInt64, periodMilliseconds period: UInt64) throws(UVError) {
        try uvCall("uv_timer_start") { uv_timer_start(timer, uvTimerFired, timeout, period) }
    }

    override func releaseCallbacks() {
        target = nil
    }

    fileprivate func fire() {
        target?.timerFired()
    }
}

private func uvTimerFired(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    UVHandle.withOwner(of: timer, as: UVTimer.self) { $0.fire() }
}
