/// The traits whose sequences carry an element, `SingleTrait` and
/// `MaybeTrait`: their `zip` forms are one implementation, and the result
/// keeps the sources' trait.
public protocol ZippableTrait {}

extension SingleTrait: ZippableTrait {}
extension MaybeTrait: ZippableTrait {}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 2
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 2 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>
    ) -> PrimitiveSequence<Trait, (E1, E2)> {
        PrimitiveSequence(raw: Observable<(E1, E2)>.zip(source1.asObservable(), source2.asObservable()) { ($0, $1) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 3
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 3 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3)> {
        PrimitiveSequence(raw: Observable<(E1, E2, E3)>.zip(source1.asObservable(), source2.asObservable(), source3.asObservable()) { ($0, $1, $2) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 4
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3, E4>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 4 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4)> {
        PrimitiveSequence(raw: Observable<(E1, E2, E3, E4)>.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()) { ($0, $1, $2, $3) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 5
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 5 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)> {
        PrimitiveSequence(
            raw: Observable<(E1, E2, E3, E4, E5)>.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()) { ($0, $1, $2, $3, $4) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 6
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 6 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence(
            raw: Observable<(E1, E2, E3, E4, E5, E6)>.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()
            ) { ($0, $1, $2, $3, $4, $5) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 7
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 7 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence(
            raw: Observable<(E1, E2, E3, E4, E5, E6, E7)>.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()
            ) { ($0, $1, $2, $3, $4, $5, $6) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits with `resultSelector` applied to the elements of the 8
    /// sources, once all have produced theirs. The first error fails the result
    /// and disposes the other sources; so does a throwing `resultSelector`.
    /// For `Maybe`, an empty source means no element: the result then
    /// completes, without an element, once every source has completed (as
    /// `Observable.zip` does).
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        _ source8: PrimitiveSequence<Trait, E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                source8.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait: ZippableTrait {
    /// The elements of the 8 sources as a tuple; see
    /// `zip(_:_:resultSelector:)`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: PrimitiveSequence<Trait, E1>,
        _ source2: PrimitiveSequence<Trait, E2>,
        _ source3: PrimitiveSequence<Trait, E3>,
        _ source4: PrimitiveSequence<Trait, E4>,
        _ source5: PrimitiveSequence<Trait, E5>,
        _ source6: PrimitiveSequence<Trait, E6>,
        _ source7: PrimitiveSequence<Trait, E7>,
        _ source8: PrimitiveSequence<Trait, E8>
    ) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence(
            raw: Observable<(E1, E2, E3, E4, E5, E6, E7, E8)>.zip(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                source8.asObservable()
            ) { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }
}

extension PrimitiveSequenceType where Trait: ZippableTrait {
    /// Emits `resultSelector` applied to the elements of every sequence in
    /// `collection` (in collection order), once all have one. The first error
    /// fails the result and disposes the others; so does a throwing
    /// `resultSelector`. An empty collection emits `resultSelector([])`, as in
    /// RxSwift.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>.deferred {
                PrimitiveSequence<Trait, Result>(raw: Observable.just(try resultSelector([])))
            }
        }
        return PrimitiveSequence<Trait, Result>(raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The elements of every sequence in `collection`, as an array in collection
    /// order; an empty collection emits `[]`. Errors and disposal as in
    /// `zip(_:resultSelector:)`.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, [Element]>(raw: Observable.just([]))
        }
        return PrimitiveSequence<Trait, [Element]>(raw: Observable.zip(collection.map { $0.asObservable() }))
    }
}
