extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs `second` after this completable completes; completes when
    /// `second` does. An error of either fails the result (and skips
    /// `second`). Disposing disposes whichever is running.
    ///
    ///     self:     --|
    ///     second:     ---|
    ///     concat:   -----|
    public func concat(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.concat(second.asObservable()))
    }

    /// Runs the completables of `sequence` one after another; completes after
    /// the last. The first error fails the result and skips the rest.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Runs the completables of `collection` one after another; completes
    /// after the last. The first error fails the result and skips the rest.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Runs `sources` one after another; completes after the last. The first
    /// error fails the result and skips the rest.
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.asObservable() }))
    }
}
