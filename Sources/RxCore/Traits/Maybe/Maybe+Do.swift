extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Runs side effects for the outcome and the subscription's lifecycle,
    /// and passes the outcome through unchanged.
    ///
    /// `onNext` / `onError` / `onCompleted` run before the event is delivered,
    /// `afterNext` / `afterError` / `afterCompleted` after it. `onSubscribe`
    /// runs before the source is subscribed, `onSubscribed` after;
    /// `onDispose` runs once when the subscription ends. A throwing
    /// before-handler replaces the event with its error. The order and the
    /// other rules are those of `ObservableType.do`.
    ///
    ///     source:               --1|
    ///     do(onNext: print):    --1|   prints 1
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(
            raw: primitiveSequence.source.do(
                onNext: onNext,
                afterNext: afterNext,
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
