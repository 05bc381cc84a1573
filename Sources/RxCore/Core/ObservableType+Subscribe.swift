extension ObservableType {
    /// Subscribes a closure to every event.
    ///
    /// - Returns: a disposable that ends the subscription.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures to elements, the error, completion and disposal.
    ///
    /// `onDisposed` runs once, after a terminal event or when the returned
    /// disposable is disposed, whichever is first. An error without an
    /// `onError` goes to `Hooks.defaultErrorHandler`.
    ///
    /// - Returns: a disposable that ends the subscription.
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        // Inlinable so that it is specialised in the caller's module for the
        // caller's element type: the observer's type metadata and its
        // conformance are then cached there instead of being looked up in the
        // runtime's hash tables on every subscription.
        guard let onDisposed else {
            let observer = CallbackObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, disposed: nil)
            return asObservable().subscribe(observer)
        }
        let disposed = AnonymousDisposable(onDisposed)
        let observer = CallbackObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, disposed: disposed)
        return Disposables.create(asObservable().subscribe(observer), disposed)
    }

    /// Like `subscribe(onNext:onError:onCompleted:onDisposed:)`, passing
    /// `object` to each closure; `object` is held weakly and events stop
    /// reaching the closures once it is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] in
                guard let object else { return }
                onNext?(object, $0)
            },
            onError: onError.map { onError in
                { [weak object] error in
                    guard let object else { return }
                    onError(object, error)
                }
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}
