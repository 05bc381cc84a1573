extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs the `Single` that `selector` returns for the element and emits
    /// its outcome. An error of either, or a throwing `selector`, fails the
    /// result. Disposing disposes whichever is running.
    ///
    ///     source:        --1|
    ///     selector(1):     --a|
    ///     flatMap:       ----a|
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: SingleFlatMapProducer(source: primitiveSequence.source, selector: selector))
    }

    /// Runs the `Maybe` that `selector` returns for the element and emits
    /// its outcome (an element, or empty completion).
    ///
    ///     source:            --1|
    ///     selector(1):         --|
    ///     flatMapMaybe:      ----|
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: SingleFlatMapProducer(source: primitiveSequence.source, selector: selector))
    }

    /// Runs the `Completable` that `selector` returns for the element and
    /// emits its outcome.
    ///
    ///     source:                 --1|
    ///     selector(1):              --|
    ///     flatMapCompletable:     ----|
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: SingleFlatMapProducer(source: primitiveSequence.source, selector: selector))
    }
}
