extension ObservableConvertibleType {
    /// The sequence as an `Infallible`: on an error, emits `element` and
    /// completes instead.
    ///
    ///     source:                            --1--#
    ///     asInfallible(onErrorJustReturn: 0): --1--0|
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an `Infallible`: on an error, continues with
    /// `infallible`.
    ///
    ///     source:        --1--#
    ///     infallible:         --2|
    ///     result:        --1----2|
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an `Infallible`: on an error, continues with the
    /// `Infallible` that `onErrorRecover` returns for it.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}
