import RxCore

/// One timer of a loop: what `loop.rx.timer`'s subscriptions, the `Loop`
/// scheduler's delayed and periodic actions, a server's idle sweep and a
/// child process's teardown own. At each expiry, on the loop thread, it
/// calls `target`.
///
/// A loop's timers share one `uv_timer_t` (`LoopTimerQueue`), as libuv's own
/// timers share the loop's heap: a timer is a heap entry, not a handle, so
/// starting and stopping one allocates nothing in libuv and closing one
/// needs no close callback. Timers expire in libuv's order (due time, then
/// the order they were started in) and are counted by the loop as open
/// `timer` handles, from `start` until `release()` (a one-shot timer: until
/// it fires), so a timer left running still fails `Loop.close` with
/// `EBUSY` and shows in `Loop.openHandleCount`.
///
/// Loop thread only, like a handle.
final class LoopTimer: UVResource, @unchecked Sendable {
    /// The loop whose queue holds this timer, held strongly: a timer keeps
    /// its loop alive, as a handle does. A stored reference of its own, not
    /// the base's optional `retainedLoop`, so `start` reads it directly.
    private let queueLoop: Loop
    /// Called at each expiry; dropped when the timer is released or a
    /// one-shot timer has fired (unless its callback started it again).
    var target: UVTimerTarget?
    /// The timer's place in its queue's heap; -1 when it is not running.
    /// Kept by `LoopTimerQueue`.
    var heapIndex = -1
    /// The period in milliseconds; 0 for a one-shot timer.
    private(set) var period: UInt64 = 0

    init(loop: Loop) {
        self.queueLoop = loop
        super.init(loop: loop, retainsLoop: false)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// `true` from `start` until `release()` or, for a one-shot timer, its
    /// expiry.
    var isRunning: Bool {
        heapIndex >= 0
    }

    /// Starts (or restarts) the timer: first expiry after `timeout`, then,
    /// unless `repeating` is `nil`, every `repeating`. Durations are rounded
    /// up to libuv's millisecond resolution; a period is at least 1 ms. Throws
    /// when the loop's `uv_timer_t` cannot be made (`uv_timer_init`) or armed
    /// (`uv_timer_start`); the timer is then not running.
    func start(timeout: RxTimeInterval, repeating: RxTimeInterval?) throws(UVError) {
        try start(milliseconds: Self.milliseconds(timeout), periodMilliseconds: Self.periodMilliseconds(repeating))
    }

    /// `start(timeout:repeating:)` in libuv's units: a period of 0 is "once".
    func start(milliseconds timeout: UInt64, periodMilliseconds period: UInt64) throws(UVError) {
        let wasRunning = isRunning
        self.period = period
        do throws(UVError) {
            try queueLoop.timers.schedule(self, after: timeout)
        } catch {
            if wasRunning {
                queueLoop.handleClosed(kind: .timer)
            }
            throw error
        }
        if !wasRunning {
            queueLoop.handleOpened(kind: .timer)
        }
    }

    /// Stops the timer and drops its target: what a subscription that owns
    /// it does on dispose. Safe from inside its own callback; does nothing
    /// once released or fired.
    override func release() {
        if isRunning {
            queueLoop.timers.remove(self)
            queueLoop.handleClosed(kind: .timer)
        }
        target = nil
    }

    /// The timer came due; `LoopTimerQueue` took it off the heap and, when
    /// it repeats, put it back for its next expiry. Loop thread.
    func expire() {
        if period != 0 {
            target?.timerFired()
            return
        }
        // A one-shot timer is done before its callback, which may start it
        // again.
        queueLoop.handleClosed(kind: .timer)
        let target = self.target
        target?.timerFired()
        if !isRunning {
            self.target = nil
        }
    }

    /// The queue released the timer without firing it (`Loop.closeAll`).
    func discard() {
        queueLoop.handleClosed(kind: .timer)
        target = nil
    }

    /// Whole milliseconds, rounded up, at least 0; `.never` is the longest timeout.
    static func milliseconds(_ interval: RxTimeInterval) -> UInt64 {
        let nanoseconds = interval.nanoseconds
        if nanoseconds <= 0 { return 0 }
        return UInt64(nanoseconds / 1_000_000) + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
    }

    /// A period in whole milliseconds, at least 1 (0 means "once"); 0 for
    /// none.
    static func periodMilliseconds(_ period: RxTimeInterval?) -> UInt64 {
        period.map { max(milliseconds($0), 1) } ?? 0
    }

    #if TRACE_RESOURCES
    deinit {
        _ = Resources.decrementTotal()
    }
    #endif
}
