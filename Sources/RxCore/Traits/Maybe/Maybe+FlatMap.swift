extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Runs the `Maybe` that `selector` returns for the element and emits its
    /// outcome; an empty source completes empty without calling `selector`.
    /// An error of either, or a throwing `selector`, fails the result.
    /// Disposing disposes whichever is running.
    ///
    ///     source:        --1|
    ///     selector(1):     --a|
    ///     flatMap:       ----a|
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap(selector))
    }
}
