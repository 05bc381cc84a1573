internal import CLibUV
import RxCore

/// A `uv_timer_t`. `onFire` runs on the loop thread at each expiry.
final class UVTimer: UVHandle {
    /// Called at each expiry; cleared when the handle closes.
    var onFire: (() -> Void)?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_TIMER, kind: "timer")
        try adopt("uv_timer_init") { uv_timer_init(loop.raw, timer) }
        onClose = { [unowned self] in self.onFire = nil }
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> {
        pointer.assumingMemoryBound(to: uv_timer_t.self)
    }

    /// Starts the timer: first expiry after `timeout`, then every `repeating`
    /// (zero: once). Durations are rounded up to libuv's millisecond resolution.
    /// The corresponding libuv function is `uv_timer_start`.
    func start(timeout: RxTimeInterval, repeating: RxTimeInterval?) throws(UVError) {
        try uvCall("uv_timer_start") { uv_timer_start(timer, uvTimerFired, Self.milliseconds(timeout), repeating.map(Self.milliseconds) ?? 0) }
    }

    /// Stops the timer without closing it (`uv_timer_stop`).
    func stop() {
        uv_timer_stop(timer)
    }

    fileprivate func fire() {
        onFire?()
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
