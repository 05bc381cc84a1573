extension InfallibleType {
    /// Emits `elements` first, then the source's elements.
    ///
    ///     source:           --1--2--|
    ///     startWith(0):     0--1--2--|
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(Observable.from(elements).concat(asObservable()))
    }

    /// Emits the source's elements, then, after it completes, `second`'s.
    ///
    ///     source:    --1--|
    ///     second:         --2--|
    ///     concat:    --1----2--|
    public func concat<Source: InfallibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(asObservable().concat(second.asObservable()))
    }

    /// Emits the elements of each `Infallible` of `sequence` in turn.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element> where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Emits the elements of each `Infallible` of `collection` in turn.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Emits the elements of each of `sources` in turn.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every `Infallible` of `sources`; completes when
    /// all have completed. Disposing disposes every subscription.
    ///
    ///     sources[0]:  --1-----3--|
    ///     sources[1]:  -----2------|
    ///     merge:       --1--2--3---|
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`; see `merge(_:)` for collections.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`; see `merge(_:)` for collections.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// For each element, emits `resultSelector` applied to it and the latest
    /// element of `second`; elements before `second` has emitted are dropped.
    ///
    ///     source:          --1-----2--|
    ///     second:          ----a------
    ///     withLatestFrom:  --------2a-|
    public func withLatestFrom<Source: InfallibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) -> ResultType) -> Infallible<ResultType> {
        Infallible<ResultType>(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// For each element, emits the latest element of `second`; elements
    /// before `second` has emitted are dropped.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().withLatestFrom(second.asObservable()))
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of every
    /// `Infallible` of `collection`, whenever one emits and all have emitted.
    /// Completion and disposal as in `Observable.combineLatest`.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The latest elements of every `Infallible` of `collection`, as arrays.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Pairs the elements of every `Infallible` of `collection` by position,
    /// into `resultSelector`. Completion and disposal as in `Observable.zip`.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Pairs the elements of every `Infallible` of `collection` by position,
    /// into arrays.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }
}
