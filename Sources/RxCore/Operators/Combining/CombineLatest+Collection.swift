extension ObservableType {
    /// Combines a collection of sources: whenever one emits, once all have
    /// emitted, emits `resultSelector` applied to the latest element of each,
    /// in collection order.
    ///
    /// Completes when every source has completed, or as soon as a source
    /// emits while some source has never emitted and all others have
    /// completed. A source that completes is unsubscribed at once. An error
    /// from a source or from `resultSelector` is emitted at once and disposes
    /// every subscription; so does disposing the result. An empty collection
    /// emits `resultSelector([])` and completes at once, as in RxSwift.
    ///
    ///     sources[0]: --1-----2-----|
    ///     sources[1]: -----a-----b-----|
    ///     result:     -----•--•--•-----|   [1,a] [2,a] [2,b]
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        combineLatestCollection(collection, resultSelector)
    }

    /// Combines a collection of sources into arrays of their latest elements,
    /// emitted whenever one emits once all have emitted. An empty collection
    /// emits `[]` and completes. Completion, errors and disposal as in
    /// `combineLatest(_:resultSelector:)`.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        combineLatestCollection(collection) { $0 }
    }
}

private func combineLatestCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    _ resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableType {
    let sources = collection.map { source in
        CombiningSource(source) { (values: inout [Collection.Element.Element?], index, element) in
            values[index] = element
        }
    }
    return CombiningProducer(
        rules: .combineLatest,
        values: [Collection.Element.Element?](repeating: nil, count: sources.count),
        sources: sources,
        take: { $0.map { $0! } },
        resultSelector: resultSelector
    )
}
