/// An observable with a guaranteed shape, distinguished by `Trait`:
/// `Single` (exactly one element or an error), `Maybe` (at most one element,
/// or an error) and `Completable` (no elements; completion or an error).
///
/// The wrapped observable is the trait's events as a sequence; operators are
/// defined per trait so that results keep the guarantee.
public struct PrimitiveSequence<Trait, Element> {
    let source: Observable<Element>

    /// Wraps `source`, which must obey the trait's guarantee (part of the
    /// `Bridge` SPI, for sources built on `Producer`).
    @_spi(Bridge)
    public init(raw: Observable<Element>) {
        self.source = raw
    }

    /// `init(raw:)` for RxCore's inlinable factories (`Single.just`).
    @usableFromInline
    init(inlinable source: Observable<Element>) {
        self.source = source
    }
}

/// A type that is a `PrimitiveSequence`.
public protocol PrimitiveSequenceType {
    /// The trait: `SingleTrait`, `MaybeTrait` or `CompletableTrait`.
    associatedtype Trait
    /// The element type.
    associatedtype Element

    /// The sequence as a `PrimitiveSequence`.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Returns `self`.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The trait's events as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// A sequence created by `observableFactory` at each subscription.
    public static func deferred(_ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.create { observer in
                do {
                    return try observableFactory().asObservable().subscribe(observer)
                } catch {
                    observer.on(.error(error))
                    return Disposables.create()
                }
            })
    }

    /// A sequence that fails with `error` at once.
    public static func error(_ error: Swift.Error) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A sequence that never emits and never terminates.
    public static func never() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.never())
    }
}
