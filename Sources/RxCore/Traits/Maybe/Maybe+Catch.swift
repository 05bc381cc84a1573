extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// On an error, emits `element` and completes instead.
    ///
    ///     source:                --#
    ///     catchAndReturn(0):     --0|
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.catchAndReturn(element))
    }
}
