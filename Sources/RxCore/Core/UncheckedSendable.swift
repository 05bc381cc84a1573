/// A value handed to another thread where Rx's contract, not the type
/// system, makes the hand-over safe.
///
/// RxSwift's API does not require elements, sources or scheduler state to be
/// `Sendable`, and RxCore keeps that API so RxSwift code ports unchanged. The
/// few places where the core itself moves such a value to another thread use
/// this box, each with a comment naming the rule that makes it safe: a source
/// that `subscribe(on:)` subscribes on the scheduler, an element that
/// `observe(on:)` delivers there, the state a scheduler passes to its action.
/// In every case the sending side no longer touches the value.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The value being handed over.
    @usableFromInline
    package let value: Value

    /// Boxes `value` for the hand-over.
    @inlinable @inline(__always)
    package init(_ value: Value) {
        self.value = value
    }
}
