// zip of 3 to 8 sources. Each arity describes its storage (a tuple of
// queues) and hands the work to `CombiningProducer`; the rules are those of
// `zip(_:_:resultSelector:)`.

// MARK: 3

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the three sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        zip3(source1, source2, source3) { try resultSelector($0.0, $0.1, $0.2) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the three sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        zip3(source1, source2, source3) { $0 }
    }
}

private func zip3<O1: ObservableType, O2: ObservableType, O3: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!) },
        resultSelector: resultSelector
    )
}

// MARK: 4

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the four sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        zip4(source1, source2, source3, source4) { try resultSelector($0.0, $0.1, $0.2, $0.3) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the four sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        zip4(source1, source2, source3, source4) { $0 }
    }
}

private func zip4<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>(), RingQueue<O4.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
            CombiningSource(source4) { values, _, element in values.3.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!, $0.3.dequeue()!) },
        resultSelector: resultSelector
    )
}

// MARK: 5

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the five sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> Observable<Element> {
        zip5(source1, source2, source3, source4, source5) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the five sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        zip5(source1, source2, source3, source4, source5) { $0 }
    }
}

private func zip5<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>(), RingQueue<O4.Element>(), RingQueue<O5.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
            CombiningSource(source4) { values, _, element in values.3.enqueue(element) },
            CombiningSource(source5) { values, _, element in values.4.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!, $0.3.dequeue()!, $0.4.dequeue()!) },
        resultSelector: resultSelector
    )
}

// MARK: 6

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the six sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> Observable<Element> {
        zip6(source1, source2, source3, source4, source5, source6) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the six sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        zip6(source1, source2, source3, source4, source5, source6) { $0 }
    }
}

private func zip6<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>(), RingQueue<O4.Element>(), RingQueue<O5.Element>(), RingQueue<O6.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
            CombiningSource(source4) { values, _, element in values.3.enqueue(element) },
            CombiningSource(source5) { values, _, element in values.4.enqueue(element) },
            CombiningSource(source6) { values, _, element in values.5.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!, $0.3.dequeue()!, $0.4.dequeue()!, $0.5.dequeue()!) },
        resultSelector: resultSelector
    )
}

// MARK: 7

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the seven sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> Observable<Element> {
        zip7(source1, source2, source3, source4, source5, source6, source7) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the seven sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        zip7(source1, source2, source3, source4, source5, source6, source7) { $0 }
    }
}

private func zip7<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>(), RingQueue<O4.Element>(), RingQueue<O5.Element>(), RingQueue<O6.Element>(), RingQueue<O7.Element>()),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
            CombiningSource(source4) { values, _, element in values.3.enqueue(element) },
            CombiningSource(source5) { values, _, element in values.4.enqueue(element) },
            CombiningSource(source6) { values, _, element in values.5.enqueue(element) },
            CombiningSource(source7) { values, _, element in values.6.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!, $0.3.dequeue()!, $0.4.dequeue()!, $0.5.dequeue()!, $0.6.dequeue()!) },
        resultSelector: resultSelector
    )
}

// MARK: 8

extension ObservableType {
    /// Emits `resultSelector` of the n-th elements of the eight sources once
    /// each has produced its n-th element. Completion, errors and disposal as
    /// in `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> Observable<Element> {
        zip8(source1, source2, source3, source4, source5, source6, source7, source8) { try resultSelector($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7) }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the eight sources once each has
    /// produced its n-th element. Completion, errors and disposal as in
    /// `zip(_:_:resultSelector:)`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        zip8(source1, source2, source3, source4, source5, source6, source7, source8) { $0 }
    }
}

private func zip8<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType, Result>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
    _ resultSelector: @escaping ((O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)) throws -> Result
) -> Observable<Result> {
    CombiningProducer(
        rules: .zip,
        values: (
            RingQueue<O1.Element>(), RingQueue<O2.Element>(), RingQueue<O3.Element>(), RingQueue<O4.Element>(), RingQueue<O5.Element>(), RingQueue<O6.Element>(), RingQueue<O7.Element>(),
            RingQueue<O8.Element>()
        ),
        sources: [
            CombiningSource(source1) { values, _, element in values.0.enqueue(element) },
            CombiningSource(source2) { values, _, element in values.1.enqueue(element) },
            CombiningSource(source3) { values, _, element in values.2.enqueue(element) },
            CombiningSource(source4) { values, _, element in values.3.enqueue(element) },
            CombiningSource(source5) { values, _, element in values.4.enqueue(element) },
            CombiningSource(source6) { values, _, element in values.5.enqueue(element) },
            CombiningSource(source7) { values, _, element in values.6.enqueue(element) },
            CombiningSource(source8) { values, _, element in values.7.enqueue(element) },
        ],
        take: { ($0.0.dequeue()!, $0.1.dequeue()!, $0.2.dequeue()!, $0.3.dequeue()!, $0.4.dequeue()!, $0.5.dequeue()!, $0.6.dequeue()!, $0.7.dequeue()!) },
        resultSelector: resultSelector
    )
}
