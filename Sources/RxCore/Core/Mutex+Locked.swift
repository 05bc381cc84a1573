import Synchronization

extension Mutex where Value: Sendable {
    /// Runs `body` with the value under the lock and returns its result
    /// without requiring the result to be `sending`.
    ///
    /// The core's rule is "decide under the lock, deliver after it": `body`
    /// returns the event to deliver (an element the caller passed in, a
    /// buffered element) and the caller delivers it once the lock is released.
    /// `withLock` requires a `sending` result, and such a result is not
    /// disconnected from the caller (it often is the caller's own argument),
    /// so it crosses `withLock` boxed. The locked value itself is `Sendable`
    /// (the core's `State` structs are, unchecked, because only this lock
    /// touches them); a lock that guards fields of its owner is a
    /// `Mutex<Void>`, whose closure ignores its argument.
    @inlinable @inline(__always)
    package borrowing func locked<Result>(_ body: (inout Value) -> Result) -> Result {
        withLock { value in UncheckedSendable(body(&value)) }.value
    }
}
