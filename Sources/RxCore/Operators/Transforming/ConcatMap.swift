extension ObservableType {
    /// Maps each element to an observable and emits their elements in order:
    /// an inner is subscribed only after the previous one completed.
    ///
    /// `selector` runs when the element arrives (its inner may then wait). If
    /// it throws, the error is emitted and everything is disposed. Completes
    /// when the source and every inner completed; any error ends the result.
    /// Disposing disposes the source and the running inner.
    ///
    ///     source:    -1-2--------|
    ///     f(1):       -a--a|
    ///     f(2):            -b--b|   (subscribed when f(1) completes)
    ///     concatMap: --a--a-b--b-|
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, mode: .limited(1))
    }
}
