import RxCore

/// An HTTP/1.1 connection's one deadline, a server's or a client's: the
/// head timeout (a server: from a request's first byte, or the
/// connection's start, to its whole head; a client: from its request to
/// the response's head), the idle timeout (between exchanges), or a
/// client's wait for `100 Continue`. One timer stands behind it: armed
/// once, and moved only when it fires before the deadline (a later
/// exchange pushed the deadline on), so an exchange costs no timer call.
/// Part of a connection's loop-thread state; the connection owns the
/// timer's scheduling (`HTTPServerConnection.schedule`,
/// `HTTPClientConnection.schedule`).
package struct HTTPDeadline {
    /// Which timeout a deadline is.
    package enum Kind: Sendable {
        case head
        case idle
        /// A client's request waits for `100 Continue` before its body.
        case `continue`
    }

    /// When the deadline falls (loop clock) and which it is; `nil` when none
    /// runs.
    package private(set) var due: (at: RxTime, kind: Kind)?
    /// The timer, when one is scheduled, and when it fires.
    private var timer: (disposable: Disposable, at: RxTime)?
    /// An idle deadline is armed: for a server, the next request's first
    /// byte has not arrived, and what arrives starts the head timeout.
    package private(set) var awaitsFirstByte = false

    package init() {}

    /// Sets the deadline `interval` from `now` (none when `interval` is
    /// `nil`). Returns the interval to schedule a timer after, when the
    /// timer standing fires later than the new deadline or none stands.
    @inline(__always)
    package mutating func arm(_ kind: Kind, after interval: RxTimeInterval?, now: RxTime) -> RxTimeInterval? {
        awaitsFirstByte = kind == .idle
        guard let interval else {
            due = nil
            return nil
        }
        let at = now + interval
        due = (at, kind)
        // A timer due later (a head timeout under a shorter idle one) is
        // moved; one due sooner fires first and moves itself.
        if let firing = timer?.at, firing <= at { return nil }
        timer?.disposable.dispose()
        timer = nil
        return interval
    }

    /// No deadline until the next `arm`: the timer, when it fires, finds
    /// none and stops.
    package mutating func disarm() {
        due = nil
    }

    /// The timer scheduled for `at`.
    package mutating func scheduled(_ disposable: Disposable, at: RxTime) {
        timer = (disposable, at)
    }

    /// What a firing timer finds: `.expired(kind)` when the deadline has
    /// passed (and is now gone), `.later(interval)` when it lies ahead (the
    /// timer is to be scheduled again), `.none` when none runs.
    package mutating func fired(now: RxTime) -> Firing {
        timer = nil
        guard let due else { return .none }
        guard now >= due.at else { return .later(due.at.timeIntervalSince(now)) }
        self.due = nil
        return .expired(due.kind)
    }

    /// What `fired(now:)` found.
    package enum Firing {
        case none
        case later(RxTimeInterval)
        case expired(Kind)
    }

    /// Stops the timer and forgets the deadline (the connection ended).
    package mutating func cancel() {
        due = nil
        let disposable = timer?.disposable
        timer = nil
        disposable?.dispose()
    }
}
