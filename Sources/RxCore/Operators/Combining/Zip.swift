extension ObservableType {
    /// Pairs the sources' elements by position: the n-th result is
    /// `resultSelector` applied to the n-th element of each source, emitted
    /// as soon as both have produced their n-th element. Elements wait in a
    /// queue per source until their partner arrives.
    ///
    /// Completes when both sources have completed (as RxSwift 6 does for 2 to
    /// 8 sources, even if no further pair can be produced before that). A
    /// source that completes is unsubscribed at once. An error from either
    /// source, or from `resultSelector`, is emitted at once and disposes both
    /// subscriptions; so does disposing the result. Results are delivered one
    /// at a time, even when the sources emit on different threads.
    ///
    ///     source1: --1-----2--3-----|
    ///     source2: -----a--------b-----c--|
    ///     result:  -----1a-------2b----3c-|
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        zip2(source1, source2) { try resultSelector($0.0, $0.1) }
    }
}

extension ObservableType where Element == Any {
    /// Pairs the two sources' elements by position into tuples. Completion,
    /// errors and disposal as in `zip(_:_:resultSelector:)`.
    ///
    ///     source1: --1--2--3--|
    ///     source2: ----a----b----|
    ///     result:  ----•----•----|   (1,a) (2,b)
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        zip2(source1, source2) { $0 }
    }
}

private func zip2<O1: ObservableType, O2: ObservableType, Result>(
    _ source1: O1, _ source2: O2,
    _ resultSelector: @escaping ((O1.Element, O2.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!) },
        resultSelector: resultSelector
    )
}
