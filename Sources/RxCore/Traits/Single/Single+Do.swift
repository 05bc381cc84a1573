extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs side effects for the outcome and the subscription's lifecycle,
    /// and passes the outcome through unchanged.
    ///
    /// `onSuccess` / `onError` run before the outcome is delivered,
    /// `afterSuccess` / `afterError` after it. `onSubscribe` runs before the
    /// source is subscribed, `onSubscribed` after; `onDispose` runs once when
    /// the subscription ends (outcome or dispose). If `onSuccess` or `onError`
    /// throws, that error is delivered instead. The order and the rules for
    /// the other handlers are those of `ObservableType.do`.
    ///
    ///     source:                  --1|
    ///     do(onSuccess: print):    --1|   prints 1
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(
            raw: primitiveSequence.source.do(
                onNext: onSuccess,
                afterNext: afterSuccess,
                onError: onError,
                afterError: afterError,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            ))
    }
}
