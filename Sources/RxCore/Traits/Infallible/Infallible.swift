/// A sequence that cannot fail: it emits elements and may complete, but never
/// errors. Build one with `asInfallible(onErrorJustReturn:)` and friends, or
/// `Infallible.create`.
public struct Infallible<Element>: InfallibleType {
    private let source: Observable<Element>

    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The elements as an `Observable` (which never errors).
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// A type that is an `Infallible`.
public protocol InfallibleType<Element>: ObservableConvertibleType {}

/// An event of an `Infallible`: an element or completion.
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence finished.
    case completed
}

extension InfallibleType {
    /// The callback through which `Infallible.create` reports events.
    public typealias InfallibleObserver = @Sendable (InfallibleEvent<Element>) -> Void

    /// Creates an `Infallible` from a subscribe function. Events after
    /// completion are dropped; disposing disposes what `subscribe` returned.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(
            Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element):
                        observer.on(.next(element))
                    case .completed:
                        observer.on(.completed)
                    }
                }
            })
    }

    /// Subscribes a closure to every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(on)
    }

    /// Subscribes closures to elements, completion and disposal.
    ///
    /// `onDisposed` runs once, after completion or on dispose.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Like `subscribe(onNext:onCompleted:onDisposed:)`, passing `object`
    /// (held weakly) to each closure; nothing is called once it is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Returns `self` as an `Infallible`.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }

    /// An `Infallible` of `element`.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(Observable.just(element))
    }

    /// An `Infallible` that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(Observable.empty())
    }

    /// An `Infallible` that never emits.
    public static func never() -> Infallible<Element> {
        Infallible(Observable.never())
    }

    /// An `Infallible` created by `factory` at each subscription.
    public static func deferred(_ factory: @escaping () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(
            Observable.create { observer in
                factory().asObservable().subscribe(observer)
            })
    }

    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(asObservable().map(transform))
    }

    /// Keeps the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }
}

/// An event is `Sendable` when its element is.
extension InfallibleEvent: Sendable where Element: Sendable {}
