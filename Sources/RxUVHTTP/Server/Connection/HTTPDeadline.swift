import RxCore

/// A connection's one deadline: the head timeout (from a request's first
/// byte, or the connection's start, to its whole head) or the idle timeout
/// (from an answer to the next request's first byte). One timer stands
/// behind it: armed once, and moved only when it fires before the deadline
/// (a later request pushed the deadline on), so a request costs no timer
/// call. Part of a connection's loop-thread state; the connection owns the
/// timer's scheduling (`HTTPServerConnection.schedule`).
struct HTTPDeadline {
    /// Which timeout a deadline is.
    enum Kind {
        case head
        case idle
    }

    /// When the deadline falls (loop clock) and which it is; `nil` when none
    /// runs.
    private(set) var due: (at: RxTime, kind: Kind)?
    /// The timer, when one is scheduled, and when it fires.
    private var timer: (disposable: Disposable, at: RxTime)?
    /// The next request's first byte has not arrived: what arrives starts
    /// the head timeout.
    private(set) var awaitsFirstByte = false

    /// Sets the deadline `interval` from `now` (none when `interval` is
    /// `nil`). Returns the interval to schedule a timer after, when the
    /// timer standing fires later than the new deadline or none stands.
    @inline(__always)
    mutating func arm(_ kind: Kind, after interval: RxTimeInterval?, now: RxTime) -> RxTimeInterval? {
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
    mutating func disarm() {
        due = nil
    }

    /// The timer scheduled for `at`.
    mutating func scheduled(_ disposable: Disposable, at: RxTime) {
        timer = (disposable, at)
    }

    /// What a firing timer finds: `.expired(kind)` when the deadline has
    /// passed (and is now gone), `.later(interval)` when it lies ahead (the
    /// timer is to be scheduled again), `.none` when none runs.
    mutating func fired(now: RxTime) -> Firing {
        timer = nil
        guard let due else { return .none }
        guard now >= due.at else { return .later(due.at.timeIntervalSince(now)) }
        self.due = nil
        return .expired(due.kind)
    }

    /// What `fired(now:)` found.
    enum Firing {
        case none
        case later(RxTimeInterval)
        case expired(Kind)
    }

    /// Stops the timer and forgets the deadline (the connection ended).
    mutating func cancel() {
        due = nil
        let disposable = timer?.disposable
        timer = nil
        disposable?.dispose()
    }
}
