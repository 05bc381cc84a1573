import Synchronization

/// The sink of a trait's `create` (`Single`, `Maybe`, `Completable`): the
/// subscribe function reports one outcome, which reaches the downstream as
/// an element and a completion, a completion, or an error, through the
/// sink's element-only forwards. No `Event` is built and no `AnyObserver`
/// stands between: in this unspecialised code each `Event<Element>` would
/// look its metadata up in the runtime, once per event.
///
/// Only the first outcome counts; later ones are ignored. An outcome ends
/// the subscription, which disposes what the subscribe function returned.
final class OutcomeSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    private let reported = Atomic<Bool>(false)

    /// Claims the one outcome: `false` once one was reported.
    private func claim() -> Bool {
        !reported.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// The outcome is `element`: emits it, then completes.
    func succeed(_ element: Observer.Element) {
        guard claim() else { return }
        forwardNext(element)
        forwardCompleted()
    }

    /// The outcome is completion with no element (`Maybe`, `Completable`).
    func complete() {
        guard claim() else { return }
        forwardCompleted()
    }

    /// The outcome is `error`.
    func fail(_ error: Swift.Error) {
        guard claim() else { return }
        forwardError(error)
    }
}

// Each trait's producer stores its own subscribe function, typed with its
// own outcome. A shared base generic over the outcome was measured and not
// kept: a closure stored at a generic function type is reabstracted, one
// thunk for the subscribe function and one for the callback each
// subscription hands it (client.get: 56 -> 58 mallocs a request).

/// The producer of `Single.create`.
final class SingleCreate<Element>: Producer<Element> {
    private let subscribeHandler: (@escaping @Sendable (Result<Element, Swift.Error>) -> Void) -> Disposable

    init(_ subscribeHandler: @escaping (@escaping @Sendable (Result<Element, Swift.Error>) -> Void) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = OutcomeSink(observer: observer, cancel: cancel)
        let subscription = subscribeHandler { outcome in
            switch outcome {
            case .success(let element): sink.succeed(element)
            case .failure(let error): sink.fail(error)
            }
        }
        return (sink: sink, subscription: subscription)
    }
}

/// The producer of `Maybe.create`.
final class MaybeCreate<Element>: Producer<Element> {
    private let subscribeHandler: (@escaping @Sendable (MaybeEvent<Element>) -> Void) -> Disposable

    init(_ subscribeHandler: @escaping (@escaping @Sendable (MaybeEvent<Element>) -> Void) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = OutcomeSink(observer: observer, cancel: cancel)
        let subscription = subscribeHandler { outcome in
            switch outcome {
            case .success(let element): sink.succeed(element)
            case .completed: sink.complete()
            case .error(let error): sink.fail(error)
            }
        }
        return (sink: sink, subscription: subscription)
    }
}

/// The producer of `Completable.create`.
final class CompletableCreate: Producer<Never> {
    private let subscribeHandler: (@escaping @Sendable (CompletableEvent) -> Void) -> Disposable

    init(_ subscribeHandler: @escaping (@escaping @Sendable (CompletableEvent) -> Void) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Never {
        let sink = OutcomeSink(observer: observer, cancel: cancel)
        let subscription = subscribeHandler { outcome in
            switch outcome {
            case .completed: sink.complete()
            case .error(let error): sink.fail(error)
            }
        }
        return (sink: sink, subscription: subscription)
    }
}
