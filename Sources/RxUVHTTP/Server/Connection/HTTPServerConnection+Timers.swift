import RxCore
import RxUV

/// The head and idle timeouts: one timer behind the connection's
/// `HTTPDeadline`.
extension HTTPServerConnection {

    /// The head timer (from a request's first byte, or the connection's
    /// start) or the idle timer (between requests).
    func armTimer(_ kind: HTTPDeadline.Kind) {
        let now = loop.now
        if let interval = state.value.deadline.arm(kind, after: kind == .head ? headTimeout : idleTimeout, now: now) {
            schedule(after: interval)
        }
    }

    func schedule(after interval: RxTimeInterval) {
        let disposable = loop.scheduleRelative((), dueTime: interval) { [self] _ in
            timerFired()
            return Disposables.create()
        }
        state.value.deadline.scheduled(disposable, at: loop.now + interval)
    }

    func timerFired() {
        guard !state.value.isClosed else { return }
        switch state.value.deadline.fired(now: loop.now) {
        case .none:
            break
        case .later(let interval):
            schedule(after: interval)
        case .expired(let kind):
            timedOut(kind)
        }
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
