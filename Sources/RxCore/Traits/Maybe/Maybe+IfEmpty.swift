extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The element, or `default` if the `Maybe` completes empty: a `Single`.
    ///
    ///     source:               ---|
    ///     ifEmpty(default: 0):  ---0|
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// The outcome, or that of `other` (subscribed only then) if the `Maybe`
    /// completes empty.
    ///
    ///     source:               ---|
    ///     other:                   --2|
    ///     ifEmpty(switchTo:):   -----2|
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable()))
    }

    /// The outcome, or that of the `Single` `other` (subscribed only then) if
    /// the `Maybe` completes empty: a `Single`.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable()))
    }
}
