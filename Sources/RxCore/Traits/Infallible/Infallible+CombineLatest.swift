extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        resultSelector: @escaping (I1.Element, I2.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 2 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1,
        _ source2: I2
    ) -> Infallible<(I1.Element, I2.Element)> {
        Infallible(Observable<(I1.Element, I2.Element)>.combineLatest(source1.asObservable(), source2.asObservable()) { ($0, $1) })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 3 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3
    ) -> Infallible<(I1.Element, I2.Element, I3.Element)> {
        Infallible(Observable<(I1.Element, I2.Element, I3.Element)>.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable()) { ($0, $1, $2) })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 4 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element)> {
        Infallible(
            Observable<(I1.Element, I2.Element, I3.Element, I4.Element)>.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()) {
                ($0, $1, $2, $3)
            })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 5 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element)> {
        Infallible(
            Observable<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element)>.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()
            ) { ($0, $1, $2, $3, $4) })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 6 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element)> {
        Infallible(
            Observable<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element)>.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()
            ) { ($0, $1, $2, $3, $4, $5) })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType, I7: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6,
        _ source7: I7,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 7 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType, I7: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6,
        _ source7: I7
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)> {
        Infallible(
            Observable<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)>.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()
            ) { ($0, $1, $2, $3, $4, $5, $6) })
    }
}

extension InfallibleType {
    /// Emits `resultSelector` applied to the latest element of each source,
    /// whenever one emits and all have emitted. Completion and disposal as in
    /// `Observable.combineLatest`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType, I7: InfallibleType, I8: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6,
        _ source7: I7,
        _ source8: I8,
        resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element) -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                source8.asObservable(), resultSelector: resultSelector))
    }
}

extension InfallibleType where Element == Any {
    /// `combineLatest` of 8 sources into tuples; see `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType, I5: InfallibleType, I6: InfallibleType, I7: InfallibleType, I8: InfallibleType>(
        _ source1: I1,
        _ source2: I2,
        _ source3: I3,
        _ source4: I4,
        _ source5: I5,
        _ source6: I6,
        _ source7: I7,
        _ source8: I8
    ) -> Infallible<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)> {
        Infallible(
            Observable<(I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element)>.combineLatest(
                source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(),
                source8.asObservable()
            ) { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }
}
