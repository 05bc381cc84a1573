extension ObservableType {
    /// Subscribes `observers` to this sequence: every event, terminal ones
    /// included, is forwarded to each observer in order.
    ///
    /// - Returns: a disposable that ends the binding.
    ///
    ///     source:    --1--2--|
    ///     observers: --1--2--|   (each of them)
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Subscribes observers of optional elements to this sequence: every
    /// event, terminal ones included, is forwarded (elements wrapped in
    /// `Optional`) to each observer in order.
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            let wrapped = event.map { Optional($0) }
            for observer in observers {
                observer.on(wrapped)
            }
        }
    }

    /// Forwards every element to `relays` (each accepts it, in order).
    ///
    /// Completion ends the binding and is not forwarded: a relay never
    /// terminates. Binding a failing sequence to a relay is a programmer
    /// error; RxRelay traps on it in debug builds. RxCore does not crash:
    /// the error ends the binding and is passed to `Hooks.defaultErrorHandler`
    /// (which prints it in debug builds), and the relays keep their state.
    ///
    /// - Returns: a disposable that ends the binding.
    ///
    ///     source: --1--2--|
    ///     relay:  --1--2-----
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Forwards every element, wrapped in `Optional`, to `relays`. Errors are
    /// handled as in `bind(to:)` for non-optional relays.
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Makes every element the current value of `relays` (each accepts it, in
    /// order).
    ///
    /// Completion ends the binding and is not forwarded; an error ends the
    /// binding and goes to `Hooks.defaultErrorHandler` (RxRelay traps on it in
    /// debug builds; RxCore does not).
    ///
    /// - Returns: a disposable that ends the binding.
    ///
    ///     source: --1--2--|
    ///     relay:  0-1--2-----   (value)
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Makes every element, wrapped in `Optional`, the current value of
    /// `relays`. Errors are handled as in `bind(to:)` for non-optional relays.
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Forwards every element to `relays` (each buffers and emits it, in
    /// order).
    ///
    /// Completion ends the binding and is not forwarded; an error ends the
    /// binding and goes to `Hooks.defaultErrorHandler` (RxRelay traps on it in
    /// debug builds; RxCore does not).
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Forwards every element, wrapped in `Optional`, to `relays`. Errors are
    /// handled as in `bind(to:)` for non-optional relays.
    ///
    /// - Returns: a disposable that ends the binding.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bindElements { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Calls `accept` with every element; completion is dropped, an error goes
    /// to `Hooks.defaultErrorHandler`.
    private func bindElements(_ accept: @escaping (Element) -> Void) -> Disposable {
        let callStack = Hooks.subscriptionCallStack()
        return asObservable().subscribe { event in
            switch event {
            case .next(let element):
                accept(element)
            case .error(let error):
                Hooks.defaultErrorHandler(callStack, RelayBindingError(error: error))
            case .completed:
                break
            }
        }
    }
}

/// The error passed to `Hooks.defaultErrorHandler` when a sequence bound to a
/// relay fails: binding a failing sequence to a relay is a programmer error.
public struct RelayBindingError: Swift.Error, CustomDebugStringConvertible {
    /// The error the bound sequence failed with.
    public let error: Swift.Error

    /// `Binding error to relay: <error>`.
    public var debugDescription: String {
        "Binding error to relay: \(error)"
    }
}
