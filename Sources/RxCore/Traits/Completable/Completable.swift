/// The trait of `Completable`: no elements; completion or an error.
public enum CompletableTrait {}

/// A sequence that only completes or fails: a write, a shutdown, a flush.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// The outcome of a `Completable`.
public enum CompletableEvent: Sendable {
    /// The work failed.
    case error(Swift.Error)
    /// The work finished.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// The callback through which `Completable.create` reports its outcome.
    public typealias CompletableObserver = @Sendable (CompletableEvent) -> Void

    /// Creates a `Completable` from a subscribe function that reports one
    /// outcome. Only the first outcome counts.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        PrimitiveSequence(raw: CompletableCreate(subscribe))
    }

    /// Subscribes `observer` to the outcome.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        var stopped = false
        return primitiveSequence.asObservable().subscribe { event in
            if stopped { return }
            switch event {
            case .next:
                return
            case .error(let error):
                stopped = true
                observer(.error(error))
            case .completed:
                stopped = true
                observer(.completed)
            }
        }
    }

    /// Subscribes closures to completion, the error and disposal.
    ///
    /// `onDisposed` runs once, after the outcome or on dispose. An error
    /// without `onError` goes to `Hooks.defaultErrorHandler`.
    @inlinable
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        // The observer `Observable.subscribe(onNext:...)` uses: one object for
        // the closures, no `Event` per outcome, and (inlinable) its metadata
        // cached in the caller's module. A write's `Completable` is
        // subscribed per request in a server.
        guard let onDisposed else {
            let observer = CallbackObserver<Never>(onNext: nil, onError: onError, onCompleted: onCompleted, disposed: nil)
            return primitiveSequence.asObservable().subscribe(observer)
        }
        let disposed = AnonymousDisposable(onDisposed)
        let observer = CallbackObserver<Never>(onNext: nil, onError: onError, onCompleted: onCompleted, disposed: disposed)
        return Disposables.create(primitiveSequence.asObservable().subscribe(observer), disposed)
    }

    /// Like `subscribe(onCompleted:onError:onDisposed:)`, passing `object`
    /// (held weakly) to each closure; nothing is called once it is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onError: onError.map { onError in
                { [weak object] error in
                    guard let object else { return }
                    onError(object, error)
                }
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }

    /// A `Completable` that completes at once.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }
}
