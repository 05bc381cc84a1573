extension ObservableType {
    /// Re-subscribes to `self` each time it fails, for as long as it takes.
    ///
    /// Elements and completion pass through; errors never do. Each failure
    /// ends the failed subscription and starts a new one at once. Disposing
    /// disposes the current subscription. A source that fails synchronously
    /// is re-subscribed in a loop (without growing the stack), forever.
    ///
    ///     self (cold): --1--#
    ///     retry():     --1----1----1...
    public func retry() -> Observable<Element> {
        let source = asObservable()
        return CatchSequenceProducer(sources: AnySequence { AnyIterator { source } }, count: nil)
    }

    /// Subscribes to `self` up to `maxAttemptCount` times in all, re-subscribing
    /// after each failure; the error of the last attempt is emitted.
    ///
    /// `retry(1)` behaves like `self`; `retry(0)` completes at once without
    /// subscribing; a negative count is a programmer error (it traps).
    /// Disposing disposes the current subscription.
    ///
    ///     self (cold): --1--#
    ///     retry(2):    --1----1--#
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "retry: maxAttemptCount must not be negative")
        return CatchSequenceProducer(sources: Swift.repeatElement(asObservable(), count: maxAttemptCount), count: maxAttemptCount)
    }
}
