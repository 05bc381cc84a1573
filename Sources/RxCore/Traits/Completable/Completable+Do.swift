extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs side effects for the outcome and the subscription's lifecycle,
    /// and passes the outcome through unchanged.
    ///
    /// `onError` / `onCompleted` run before the event is delivered,
    /// `afterError` / `afterCompleted` after it. `onSubscribe` runs before the
    /// source is subscribed, `onSubscribed` after; `onDispose` runs once when
    /// the subscription ends. A throwing before-handler replaces the event
    /// with its error. The order and the other rules are those of
    /// `ObservableType.do`.
    ///
    ///     source:                     ---|
    ///     do(onCompleted: print):     ---|   prints at completion
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(
            raw: primitiveSequence.source.do(
                onError: onError,
                afterError: afterError,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            ))
    }
}
