// combineLatest of 3 to 8 sources. Each arity describes its storage (a tuple
// of optionals) and hands the work to `CombiningProducer`; the rules are
// those of `combineLatest(_:_:resultSelector:)`.

// MARK: 3

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the three sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest3(source1, source2, source3) { try resultSelector($0.0, $0.1, $0.2) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the three sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        combineLatest3(source1, source2, source3) { $0 }
    }
}

private func combineLatest3<O1: ObservableType, O2: ObservableType, O3: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!) },
        resultSelector: resultSelector
    )
}

// MARK: 4

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the four sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest4(source1, source2, source3, source4) { try resultSelector($0.0, $0.1, $0.2, $0.3) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the four sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        combineLatest4(source1, source2, source3, source4) { $0 }
    }
}

private func combineLatest4<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none, O4.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
            CombiningSource(source4) { values, _, element in values.3 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!, $0.3!) },
        resultSelector: resultSelector
    )
}

// MARK: 5

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the five sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest5(source1, source2, source3, source4, source5) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the five sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        combineLatest5(source1, source2, source3, source4, source5) { $0 }
    }
}

private func combineLatest5<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none, O4.Element?.none, O5.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
            CombiningSource(source4) { values, _, element in values.3 = element },
            CombiningSource(source5) { values, _, element in values.4 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!, $0.3!, $0.4!) },
        resultSelector: resultSelector
    )
}

// MARK: 6

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the six sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest6(source1, source2, source3, source4, source5, source6) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the six sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        combineLatest6(source1, source2, source3, source4, source5, source6) { $0 }
    }
}

private func combineLatest6<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none, O4.Element?.none, O5.Element?.none, O6.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
            CombiningSource(source4) { values, _, element in values.3 = element },
            CombiningSource(source5) { values, _, element in values.4 = element },
            CombiningSource(source6) { values, _, element in values.5 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!, $0.3!, $0.4!, $0.5!) },
        resultSelector: resultSelector
    )
}

// MARK: 7

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the seven sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest7(source1, source2, source3, source4, source5, source6, source7) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the seven sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        combineLatest7(source1, source2, source3, source4, source5, source6, source7) { $0 }
    }
}

private func combineLatest7<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none, O4.Element?.none, O5.Element?.none, O6.Element?.none, O7.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
            CombiningSource(source4) { values, _, element in values.3 = element },
            CombiningSource(source5) { values, _, element in values.4 = element },
            CombiningSource(source6) { values, _, element in values.5 = element },
            CombiningSource(source7) { values, _, element in values.6 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!, $0.3!, $0.4!, $0.5!, $0.6!) },
        resultSelector: resultSelector
    )
}

// MARK: 8

extension ObservableType {
    /// Emits `resultSelector` of the latest elements of the eight sources whenever
    /// one emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest8(source1, source2, source3, source4, source5, source6, source7, source8) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest elements of the eight sources whenever one
    /// emits, once all have emitted. Completion, errors and disposal as in
    /// `combineLatest(_:_:resultSelector:)`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        combineLatest8(source1, source2, source3, source4, source5, source6, source7, source8) { $0 }
    }
}

private func combineLatest8<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .combineLatest,
        values: (O1.Element?.none, O2.Element?.none, O3.Element?.none, O4.Element?.none, O5.Element?.none, O6.Element?.none, O7.Element?.none, O8.Element?.none),
        sources: [
            CombiningSource(source1) { values, _, element in values.0 = element },
            CombiningSource(source2) { values, _, element in values.1 = element },
            CombiningSource(source3) { values, _, element in values.2 = element },
            CombiningSource(source4) { values, _, element in values.3 = element },
            CombiningSource(source5) { values, _, element in values.4 = element },
            CombiningSource(source6) { values, _, element in values.5 = element },
            CombiningSource(source7) { values, _, element in values.6 = element },
            CombiningSource(source8) { values, _, element in values.7 = element },
        ],
        take: { ($0.0!, $0.1!, $0.2!, $0.3!, $0.4!, $0.5!, $0.6!, $0.7!) },
        resultSelector: resultSelector
    )
}
