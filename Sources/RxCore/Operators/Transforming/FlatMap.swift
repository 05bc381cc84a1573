extension ObservableType {
    /// Maps each element to an observable and emits the elements of all of
    /// them, as they arrive.
    ///
    /// Each inner is subscribed when its element arrives; all stay subscribed
    /// until they end. Completes when the source and every inner completed;
    /// an error from the source or any inner ends the result and disposes
    /// everything. If `selector` throws, the error is emitted and everything
    /// is disposed. Events are delivered one at a time, even when inners emit
    /// on several threads. Disposing disposes the source and every inner.
    ///
    ///     source:  -1-----2------|
    ///     f(1):     -a---a|
    ///     f(2):           -b--b|
    ///     flatMap: --a---ab--b---|
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, mode: .all)
    }
}
