extension ObservableType {
    /// Combines two sources: whenever either emits, once both have emitted,
    /// emits `resultSelector` applied to the latest element of each.
    ///
    /// Completes when both sources have completed, or as soon as a source
    /// emits while the other has completed without ever emitting (no result
    /// can ever be produced). A source that completes is unsubscribed at
    /// once. An error from either source, or from `resultSelector`, is
    /// emitted at once and disposes both subscriptions. Disposing the result
    /// disposes both subscriptions. Results are delivered one at a time, even
    /// when the sources emit on different threads.
    ///
    ///     source1: --1-----2-----3--|
    ///     source2: -----a-----b-----|
    ///     result:  -----1a-2a-2b-3b-|
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest2(source1, source2) { try resultSelector($0.0, $0.1) }
    }
}

extension ObservableType where Element == Any {
    /// Combines two sources into tuples of their latest elements, emitted
    /// whenever either source emits once both have emitted.
    ///
    /// Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    ///
    ///     source1: --1----2----------|
    ///     source2: ----a--------b----|
    ///     result:  ----•--•-----•----|   (1,a) (2,a) (2,b)
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        combineLatest2(source1, source2) { $0 }
    }
}

private func combineLatest2<O1: ObservableType, O2: ObservableType, Result>(
    _ source1: O1, _ source2: O2,
    _ resultSelector: @escaping ((O1.Element, O2.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
        ],
        take: { ($0.0!, $0.1!) },
        resultSelector: resultSelector
    )
}
