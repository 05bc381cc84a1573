import Synchronization

/// An observer that calls a closure for each event and ignores everything
/// after the first terminal event.
final class AnonymousObserver<Element>: ObserverType {
    typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    private let stopped = Atomic<Bool>(false)

    init(_ eventHandler: @escaping EventHandler) {
        self.eventHandler = eventHandler
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !stopped.load(ordering: .relaxed) {
                eventHandler(event)
            }
        case .error, .completed:
            if !stopped.exchange(true, ordering: .acquiringAndReleasing) {
                eventHandler(event)
            }
        }
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// The observer behind `subscribe(onNext:onError:onCompleted:onDisposed:)`:
/// calls the closure for each kind of event, ignores everything after the
/// first terminal event, and disposes `disposed` (the `onDisposed` action)
/// after a terminal event. Elements reach `onNext` without being wrapped in
/// an `Event`.
///
/// `@usableFromInline` because the inlinable `subscribe(onNext:...)` creates it.
@usableFromInline
final class CallbackObserver<Element>: ObserverType {
    private let onNextHandler: ((Element) -> Void)?
    private let onErrorHandler: ((Swift.Error) -> Void)?
    private let onCompletedHandler: (() -> Void)?
    /// Typed as the class it always is: one word, where a `Disposable?`
    /// existential would take five in every subscription's observer.
    private let disposed: AnonymousDisposable?
    /// Where the subscription was made, for `Hooks.defaultErrorHandler`:
    /// recorded only without `onError`, when `Hooks.recordCallStackOnError`.
    private let callStack: [String]
    private let stopped = Atomic<Bool>(false)

    @usableFromInline
    init(onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?, disposed: AnonymousDisposable?) {
        self.onNextHandler = onNext
        self.onErrorHandler = onError
        self.onCompletedHandler = onCompleted
        self.disposed = disposed
        self.callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    @usableFromInline
    func onNext(_ element: Element) {
        if stopped.load(ordering: .relaxed) { return }
        onNextHandler?(element)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            if let onErrorHandler {
                onErrorHandler(error)
            } else {
                Hooks.defaultErrorHandler(callStack, error)
            }
            disposed?.dispose()
        case .completed:
            onCompleted()
        }
    }

    @usableFromInline
    func onCompleted() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onCompletedHandler?()
        disposed?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
