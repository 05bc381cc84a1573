extension InfallibleType {
    /// Subscribes `observers`: every event (elements and completion) is
    /// forwarded to each observer in order.
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Subscribes observers of optional elements: every event is forwarded,
    /// elements wrapped in `Optional`, to each observer in order.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            let wrapped = event.map { Optional($0) }
            for observer in observers {
                observer.on(wrapped)
            }
        }
    }

    /// Passes `self` to `binder` and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes `self` to `binder`, then `curriedArgument` to what it returns.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with every element; completion ends the binding.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        asObservable().subscribe(onNext: onNext)
    }

    /// Calls `onNext` with `object` (held weakly) and every element; nothing
    /// is called once `object` is gone.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        asObservable().subscribe(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }

    /// Forwards every element to `relays` (each accepts it, in order);
    /// completion ends the binding.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element, wrapped in `Optional`, to `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element the current value of `relays`; completion ends
    /// the binding.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element, wrapped in `Optional`, the current value of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element to `relays`, which replay it; completion ends
    /// the binding.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element, wrapped in `Optional`, to `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
