extension ObservableType {
    /// Pairs the elements of a collection of sources by position: the n-th
    /// result is `resultSelector` applied to the n-th element of every
    /// source, in collection order. Elements wait in a queue per source.
    ///
    /// Completes when every source has completed, or, as in RxSwift, as soon
    /// as a source emits while some source's queue is empty and every other
    /// source has completed. A source that completes is unsubscribed at once.
    /// An error from a source or from `resultSelector` is emitted at once and
    /// disposes every subscription; so does disposing the result. An empty
    /// collection completes at once without emitting.
    ///
    ///     sources[0]: --1-----2--|
    ///     sources[1]: -----a---b---c---|
    ///     result:     -----•---•---|       [1,a] [2,b]
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        zipCollection(collection, resultSelector)
    }

    /// Pairs the elements of a collection of sources by position into arrays.
    /// An empty collection completes at once. Completion, errors and disposal
    /// as in `zip(_:resultSelector:)`.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        zipCollection(collection) { $0 }
    }
}

private func zipCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    _ resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableType {
    typealias SourceElement = Collection.Element.Element
    let sources = collection.map { source in
        CombiningSource(source) { (values: inout [RingQueue<SourceElement>], index, element) in
            values[index].enqueue(element)
        }
    }
    return CombiningProducer(
        rules: .zipCollection,
        values: [RingQueue<SourceElement>](repeating: RingQueue(), count: sources.count),
        sources: sources,
        take: { queues in
            var elements = [SourceElement]()
            elements.reserveCapacity(queues.count)
            for index in queues.indices {
                elements.append(queues[index].dequeue()!)
            }
            return elements
        },
        resultSelector: resultSelector
    )
}
