extension PrimitiveSequence {
    /// On an error, continues with the sequence `handler` returns for it.
    /// If `handler` throws, its error is emitted. Disposing disposes the
    /// current sequence.
    ///
    ///     source:            --#
    ///     handler(e):          --2|
    ///     catch:             ----2|
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).source })
    }

    /// Resubscribes to the source after every error, for as long as it fails.
    ///
    ///     source:     --#  --#  --1|
    ///     retry():    ----------1|
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry())
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all (the
    /// first attempt included) while it fails; the last error is emitted.
    ///
    ///     source:     --#  --#
    ///     retry(2):   ------#
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Passes the source's errors, cast to `Error`, to the observable that
    /// `notificationHandler` returns: each element it emits resubscribes to
    /// the source, its completion completes the result, its error fails it.
    /// An error that is not an `Error` fails the result.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Passes the source's errors to the observable that
    /// `notificationHandler` returns: each element it emits resubscribes to
    /// the source, its completion completes the result, its error fails it.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }
}
