import RxCore
import RxUV

/// A connection that keeps its timeouts as one `HTTPDeadline` on one
/// standing timer: the server's and the client's HTTP/1.1 connections.
/// The connection arms the deadline itself (`HTTPDeadline.arm`, in its
/// loop-thread state); when that asks for a timer, `scheduleDeadlineTimer`
/// schedules it on the loop's timers, and the timer's firing moves it
/// on or hands the expired kind to `deadlineExpired`. Loop thread.
package protocol HTTPDeadlineOwner: AnyObject, Sendable {
    /// The loop whose timers the deadline's timer runs on.
    var loop: Loop { get }
    /// The connection closed: a timer that fires finds nothing to do.
    var isClosed: Bool { get }
    /// Runs `body` on the connection's deadline, in place.
    func withDeadline<Result>(_ body: (inout HTTPDeadline) -> Result) -> Result
    /// The deadline of `kind` passed (and is gone).
    func deadlineExpired(_ kind: HTTPDeadline.Kind)
}

extension HTTPDeadlineOwner {
    /// Schedules the deadline's timer `interval` from now (what
    /// `HTTPDeadline.arm` asked for), `uv_timer_start` through the loop's
    /// timers.
    package func scheduleDeadlineTimer(after interval: RxTimeInterval) {
        let disposable = loop.scheduleRelative((), dueTime: interval) { [self] _ in
            deadlineTimerFired()
            return Disposables.create()
        }
        let at = loop.now + interval
        withDeadline { $0.scheduled(disposable, at: at) }
    }

    /// The timer fired: nothing when the connection closed or no deadline
    /// runs, the timer again when the deadline lies ahead, else the
    /// deadline's expiry.
    private func deadlineTimerFired() {
        guard !isClosed else { return }
        let now = loop.now
        switch withDeadline({ $0.fired(now: now) }) {
        case .none:
            break
        case .later(let interval):
            scheduleDeadlineTimer(after: interval)
        case .expired(let kind):
            deadlineExpired(kind)
        }
    }
}
