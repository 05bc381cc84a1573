extension ObservableType {
    /// Maps an element to an observable and emits its elements; elements that
    /// arrive while that inner is still running are ignored (`selector` is not
    /// called for them).
    ///
    /// Completes when the source and the running inner completed; an error
    /// from either ends the result. If `selector` throws, the error is
    /// emitted and everything is disposed. Disposing disposes the source and
    /// the running inner.
    ///
    ///     source:       -1--2----3---|
    ///     f(1):          -a--a|
    ///     f(3):                   -c-c|
    ///     flatMapFirst: --a--a----c-c|
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, mode: .firstOnly)
    }
}
