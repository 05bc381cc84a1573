extension ObservableType {
    /// Emits the source's elements while `predicate` returns `true`.
    ///
    /// The first element for which `predicate` returns `false` is emitted only
    /// with `.inclusive`; the result then completes and disposes the upstream
    /// subscription. Terminal events of the source pass through. If
    /// `predicate` throws, the error is emitted and the upstream subscription
    /// is disposed. Disposing the result disposes the upstream subscription.
    /// It is `take(until:)` with the predicate negated.
    ///
    ///     source:                               --1--2--3--4--|
    ///     take(while: { $0 < 3 }):              --1--2--|
    ///     take(while: { $0 < 3 }, .inclusive):  --1--2--3|
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        take(until: { try !predicate($0) }, behavior: behavior)
    }
}
