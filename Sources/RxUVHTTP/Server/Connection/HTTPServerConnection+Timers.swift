import RxCore
import RxUV

/// The head and idle timeouts: one timer behind the connection's
/// `HTTPDeadline` (`HTTPDeadlineOwner` schedules it).
extension HTTPServerConnection: HTTPDeadlineOwner {

    /// The head timer (from a request's first byte, or the connection's
    /// start) or the idle timer (between requests).
    func armTimer(_ kind: HTTPDeadline.Kind) {
        let now = loop.now
        if let interval = state.value.deadline.arm(kind, after: kind == .head ? headTimeout : idleTimeout, now: now) {
            scheduleDeadlineTimer(after: interval)
        }
    }

    var isClosed: Bool {
        state.value.isClosed
    }

    func withDeadline<Result>(_ body: (inout HTTPDeadline) -> Result) -> Result {
        body(&state.value.deadline)
    }

    func deadlineExpired(_ kind: HTTPDeadline.Kind) {
        timedOut(kind)
    }

    func timedOut(_ kind: HTTPDeadline.Kind) {
        guard !state.value.isClosed, !hasRequest else { return }
        switch kind {
        case .idle: finish()
        case .head: refuse(.requestTimeout, "Request Timeout")
        // A client's wait; a server arms none.
        case .continue: break
        }
    }
}
