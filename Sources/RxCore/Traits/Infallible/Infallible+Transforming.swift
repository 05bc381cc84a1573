extension InfallibleType {
    /// Transforms each element, dropping `nil` results.
    ///
    ///     source:                              --1--2--3--|
    ///     compactMap { $0 == 2 ? nil : $0 }:   --1-----3--|
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible<Result>(asObservable().compactMap(transform))
    }

    /// Emits each intermediate accumulation, starting from `seed`, updating
    /// the accumulator in place.
    ///
    ///     source:                      --1--2--3--|
    ///     scan(into: 0) { $0 += $1 }:  --1--3--6--|
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Emits each intermediate accumulation, starting from `seed`.
    ///
    ///     source:          --1--2--3--|
    ///     scan(0, +):      --1--3--6--|
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(seed, accumulator: accumulator))
    }
}
