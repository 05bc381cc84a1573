extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs every completable of `sources` at once; completes when all have
    /// completed. The first error fails the result and disposes the others;
    /// so does disposing the result. An empty collection completes at once.
    ///
    ///     sources[0]:   --|
    ///     sources[1]:   -----|
    ///     zip:          -----|
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs `sources` at once; completes when all have completed. Errors and
    /// disposal as in `zip(_:)` for a collection.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs `sources` at once; completes when all have completed. Errors and
    /// disposal as in `zip(_:)` for a collection.
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Same as `zip(_:)`: runs every completable of `sources` at once and
    /// completes when all have completed (RxSwift 5's name).
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        zip(sources)
    }

    /// Same as `zip(_:)` (RxSwift 5's name).
    public static func merge(_ sources: [Completable]) -> Completable {
        zip(sources)
    }

    /// Same as `zip(_:)` (RxSwift 5's name).
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}
