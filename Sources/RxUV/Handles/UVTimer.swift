internal import CLibUV
import RxCore

/// Receives a timer's expiries: the subscription that owns the timer
/// (`loop.rx.timer`'s sink, a scheduled action).
protocol UVTimerTarget: AnyObject {
    /// The timer expired. Loop thread.
    func timerFired()
}

/// A `uv_timer_t`. At each expiry, on the loop thread, it calls `target`,
/// which it holds until the handle closes.
final class UVTimer: UVHandle {
    /// Called at each expiry; released when the handle closes.
    var target: UVTimerTarget?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_TIMER, kind: .timer)
        try adopt("uv_timer_init") { uv_timer_init(loop.raw, timer) }
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> {
        pointer.assumingMemoryBound(to: uv_timer_t.self)
    }

    /// Starts the timer: first expiry after `timeout`, then, unless
    /// `repeating` is `nil`, every `repeating`. Durations are rounded up to
    /// libuv's millisecond resolution; a period is at least 1 ms (libuv reads
    /// 0 as "once"). The corresponding libuv function is `uv_timer_start`.
    func start(timeout: RxTimeInterval, repeating: RxTimeInterval?) throws(UVError) {
        try start(milliseconds: Self.milliseconds(timeout), periodMilliseconds: Self.periodMilliseconds(repeating))
    }

    /// `start(timeout:repeating:)` in libuv's units: a period of 0 is "once".
    func start(milliseconds timeout: UInt64, periodMilliseconds period: UInt64) throws(UVError) {
        try uvCall("uv_timer_start") { uv_timer_start(timer, uvTimerFired, timeout, period) }
    }

    /// A period in whole milliseconds, at least 1 (libuv reads 0 as "once");
    /// 0 for none.
    static func periodMilliseconds(_ period: RxTimeInterval?) -> UInt64 {
        period.map { max(milliseconds($0), 1) } ?? 0
    }

    /// Stops the timer without closing it (`uv_timer_stop`).
    func stop() {
        uv_timer_stop(timer)
    }

    override func releaseCallbacks() {
        target = nil
    }

    fileprivate func fire() {
        target?.timerFired()
    }

    /// Whole milliseconds, rounded up, at least 0; `.never` is the longest timeout.
    static func milliseconds(_ interval: RxTimeInterval) -> UInt64 {
        let nanoseconds = interval.nanoseconds
        if nanoseconds <= 0 { return 0 }
        return UInt64(nanoseconds / 1_000_000) + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
    }
}

private func uvTimerFired(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    UVHandle.owner(of: timer, as: UVTimer.self).fire()
}
