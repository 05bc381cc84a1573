extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Transforms the element, dropping a `nil` result: a `Maybe` that
    /// completes empty when `transform` returns `nil`. If `transform` throws,
    /// the error is emitted.
    ///
    ///     source:                    --1|
    ///     compactMap { nil }:        --|
    ///     compactMap { $0 * 2 }:     --2|
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }
}
