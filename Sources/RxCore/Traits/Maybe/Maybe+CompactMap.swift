extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Transforms the element, dropping a `nil` result: the `Maybe` then
    /// completes empty. If `transform` throws, the error is emitted.
    ///
    ///     source:                 --1|
    ///     compactMap { nil }:     --|
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }
}
