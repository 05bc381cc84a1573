extension InfallibleType {
    /// Subscribes to the `Infallible` that `selector` returns for each
    /// element and merges their elements; completes when the source and
    /// every inner sequence have completed.
    ///
    ///     source:     --1-----2--|
    ///     inner(1):     --a--b|
    ///     inner(2):           --c|
    ///     flatMap:    ----a--bc-c|   (sketch)
    public func flatMap<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMap(selector))
    }

    /// Subscribes to the `Infallible` that `selector` returns for each
    /// element, disposing the previous inner one; completes when the source
    /// and the current inner sequence have completed.
    public func flatMapLatest<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapLatest(selector))
    }

    /// Subscribes to the `Infallible` that `selector` returns for an element
    /// only while no inner sequence is running; elements that arrive
    /// meanwhile are dropped.
    public func flatMapFirst<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapFirst(selector))
    }

    /// Subscribes to the `Infallible` that `selector` returns for each
    /// element, one after another in order; completes after the source and
    /// the last inner sequence.
    public func concatMap<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().concatMap(selector))
    }
}
