/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that emits exactly one element or fails: a request, a lookup,
/// a connect.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// The outcome of a `Single`: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback through which `Single.create` reports its outcome.
    public typealias SingleObserver = @Sendable (SingleEvent<Element>) -> Void

    /// Creates a `Single` from a subscribe function that reports one outcome.
    ///
    /// Only the first outcome counts; later calls are ignored. Disposing the
    /// subscription disposes what `subscribe` returned.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        PrimitiveSequence(raw: SingleCreate(subscribe))
    }

    /// Subscribes `observer` to the outcome.
    ///
    /// - Returns: a disposable that cancels the subscription.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.asObservable().subscribe(
            SingleOutcomeObserver(
                success: { observer(.success($0)) },
                failure: { observer(.failure($0)) }))
    }

    /// Subscribes closures to the element, the failure and disposal.
    ///
    /// `onDisposed` runs once, after the outcome or on dispose. A failure
    /// without `onFailure` goes to `Hooks.defaultErrorHandler`.
    // Inlinable, so that the caller's module makes the outcome observer
    // of its own element type (its metadata found once, not looked up in
    // the run time at every subscription).
    @inlinable
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onFailure == nil ? Hooks.subscriptionCallStack() : []
        guard let onDisposed else {
            // Nothing to call on dispose: the subscription is returned as
            // it is, and the observer is the one object made.
            return primitiveSequence.asObservable().subscribe(SingleOutcomeObserver(success: onSuccess, failure: onFailure, callStack: callStack))
        }
        let disposedCallback = Disposables.create(with: onDisposed)
        let subscription = primitiveSequence.asObservable().subscribe(
            SingleOutcomeObserver(success: onSuccess, failure: onFailure, callStack: callStack, afterOutcome: disposedCallback))
        return Disposables.create(subscription, disposedCallback)
    }

    /// Like `subscribe(onSuccess:onFailure:onDisposed:)`, passing `object`
    /// (held weakly) to each closure; nothing is called once it is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onFailure: onFailure.map { onFailure in
                { [weak object] error in
                    guard let object else { return }
                    onFailure(object, error)
                }
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }

    /// A `Single` of `element`.
    @inlinable
    public static func just(_ element: Element) -> Single<Element> {
        PrimitiveSequence(inlinable: Observable.just(element))
    }

    /// A `Single` of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler))
    }

    /// Transforms the element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// The element if it satisfies `predicate`, otherwise empty: a `Maybe`.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// The `Single` as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// The `Single` as a `Completable`: its element is dropped.
    public func asCompletable() -> Completable {
        primitiveSequence.source.droppingElements()
    }
}
