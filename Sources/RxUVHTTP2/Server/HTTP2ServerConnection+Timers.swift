import RxCore
import RxUV
import RxUVHTTP

/// The timeouts, on one timer a connection: the head timeout (a client
/// that opens the connection and sends no stream, or starts a header
/// block and does not finish it: slowloris) and the idle timeout (no
/// stream open). Each ends the connection with a GOAWAY (`NO_ERROR`); the
/// timer is set for the nearest deadline and moved only when a nearer one
/// comes, so a busy connection does not set a timer per stream.
extension HTTP2ServerConnection {

    /// No stream is open: the idle timeout starts (the head timeout for a
    /// connection that has not begun a stream yet).
    func becameIdle() {
        let now = Loop.monotonicNanoseconds
        state.value.idleSince = now
        arm(now: now)
    }

    /// A header block began on `stream`: it must end within the head
    /// timeout.
    func headerBlockBegan(stream: Int32) {
        let now = Loop.monotonicNanoseconds
        state.value.headerBlockSince = now
        state.value.headerBlockStream = stream
        state.value.idleSince = nil
        arm(now: now)
    }

    /// The header block of `stream` ended (whole, or with its stream).
    func headerBlockEnded(stream: Int32) {
        guard state.value.headerBlockStream == stream else { return }
        state.value.headerBlockSince = nil
    }

    /// The nearest deadline, if any: when the idle or the header block
    /// times out.
    private func nearestDeadline() -> Int64? {
        var nearest: Int64?
        if let since = state.value.idleSince, state.value.streams.isEmpty {
            let timeout = state.value.streamCount == 0 ? headTimeout : idleTimeout
            if timeout > 0 { nearest = since + timeout }
        }
        if let since = state.value.headerBlockSince, headTimeout > 0 {
            let due = since + headTimeout
            nearest = min(nearest ?? due, due)
        }
        return nearest
    }

    /// Sets the timer for the nearest deadline unless one is set no later.
    private func arm(now: Int64) {
        guard let due = nearestDeadline() else { return }
        if let timer = state.value.timer {
            guard state.value.timerDue > due else { return }
            timer.dispose()
        }
        state.value.timerDue = due
        state.value.timer = loop.scheduleRelative((), dueTime: .nanoseconds(Int(max(due - now, 0)))) { [self] _ in
            state.value.timer = nil
            deadlineReached()
            return Disposables.create()
        }
    }

    /// The timer fired: a deadline passed ends the connection; otherwise the
    /// timer is set for the next one.
    private func deadlineReached() {
        guard case .serving(let session) = state.value.phase, let due = nearestDeadline() else { return }
        let now = Loop.monotonicNanoseconds
        guard due <= now else {
            arm(now: now)
            return
        }
        // A header block cut short leaves the header table unknown: the
        // session ends at once. An idle one says goodbye.
        if state.value.headerBlockSince != nil {
            session.terminate(.noError)
        } else {
            session.goAway(.noError)
        }
        state.value.phase = .draining(session)
        flush()
    }
}
