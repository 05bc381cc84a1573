extension PrimitiveSequenceType where Trait == SingleTrait {
    /// On an error, succeeds with `element` instead.
    ///
    ///     source:                --#
    ///     catchAndReturn(0):     --0|
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }
}
