import Synchronization

extension ObservableType {
    /// Re-subscribes to `self` after a failure when the observable built by
    /// `notificationHandler` says so.
    ///
    /// On each subscription, `notificationHandler` receives an observable of
    /// the failures of `self` (errors of type `Error`) and returns a trigger
    /// observable, which is subscribed before `self`. When `self` fails with
    /// an `Error`, the failed subscription ends and the error is sent to the
    /// handler's observable; the next element of the trigger then
    /// re-subscribes `self`, while the trigger completing or failing
    /// completes or fails the result. An error that is not an `Error` is
    /// emitted at once. Elements and completion of `self` pass through.
    /// Disposing disposes the current subscription and the trigger's.
    ///
    ///     self (cold): --1--#
    ///     trigger:          ---t      (3 ticks after each error, twice, then |)
    ///     result:      --1-----1-----1--|
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), notificationHandler: notificationHandler)
    }

    /// Re-subscribes to `self` after a failure when the observable built by
    /// `notificationHandler` says so; see `retry(when:)` with a typed error.
    /// Here every error is sent to the handler.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), notificationHandler: notificationHandler)
    }
}

private final class RetryWhenSink<Observer: ObserverType, TriggerElement, Failure>: Sink<Observer>, TailRecursiveSink, @unchecked Sendable {
    typealias Element = Observer.Element

    let tail: TailRecursion<Element>
    /// The failures, as the notification handler sees them.
    fileprivate let errors = PublishSubject<Failure>()
    /// The trigger's events; an attempt that failed listens to it.
    fileprivate let notifier = PublishSubject<TriggerElement>()
    private let trigger: Observable<TriggerElement>
    // Written before a move is scheduled and read by the move (through the gate).
    fileprivate var lastError: Swift.Error?

    init<TriggerObservable: ObservableType>(
        source: Observable<Element>,
        notificationHandler: (Observable<Failure>) -> TriggerObservable,
        observer: Observer,
        cancel: SinkDisposer
    ) where TriggerObservable.Element == TriggerElement {
        tail = TailRecursion(TailRecursion.Sources(iterator: AnyIterator { source }, remaining: nil))
        trigger = notificationHandler(errors).asObservable()
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let triggerSubscription = trigger.subscribe(notifier)
        scheduleMoveNext()
        return Disposables.create(tail, triggerSubscription)
    }

    func subscribe(toNext source: Observable<Element>) -> Disposable {
        let attempt = RetryWhenAttempt(parent: self)
        attempt.start(source)
        return attempt
    }

    func done() {
        if let lastError {
            forwardOn(.error(lastError))
        } else {
            forwardOn(.completed)
        }
        dispose()
    }

    /// `self` failed with `error` during an attempt that listens to the trigger from now on.
    fileprivate func attemptFailed(_ failure: Failure) {
        errors.on(.next(failure))
    }

    fileprivate func triggerOn(_ event: Event<TriggerElement>) {
        switch event {
        case .next:
            lastError = nil
            scheduleMoveNext()
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

/// One subscription to the source: forwards its events and, after a
/// failure, listens to the trigger. Disposing ends both.
private final class RetryWhenAttempt<Observer: ObserverType, TriggerElement, Failure>: ObserverType, Disposable {
    typealias Element = Observer.Element

    private let parent: RetryWhenSink<Observer, TriggerElement, Failure>
    private let subscription = SingleAssignmentDisposable()
    private let triggerSubscription = SingleAssignmentDisposable()

    init(parent: RetryWhenSink<Observer, TriggerElement, Failure>) {
        self.parent = parent
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func start(_ source: Observable<Element>) {
        subscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            parent.forwardOn(event)
        case .error(let error):
            parent.lastError = error
            guard let failure = error as? Failure else {
                parent.forwardOn(event)
                parent.dispose()
                return
            }
            subscription.dispose()
            triggerSubscription.setDisposable(parent.notifier.subscribe(RetryWhenTriggerObserver(parent: parent)))
            parent.attemptFailed(failure)
        case .completed:
            parent.forwardOn(event)
            parent.dispose()
        }
    }

    func dispose() {
        subscription.dispose()
        triggerSubscription.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

private struct RetryWhenTriggerObserver<Observer: ObserverType, TriggerElement, Failure>: ObserverType {
    typealias Element = TriggerElement

    let parent: RetryWhenSink<Observer, TriggerElement, Failure>

    func on(_ event: Event<TriggerElement>) {
        parent.triggerOn(event)
    }
}

private final class RetryWhenProducer<Element, TriggerObservable: ObservableType, Failure>: Producer<Element> {
    private let source: Observable<Element>
    private let notificationHandler: (Observable<Failure>) -> TriggerObservable

    init(source: Observable<Element>, notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable) {
        self.source = source
        self.notificationHandler = notificationHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = RetryWhenSink(source: source, notificationHandler: notificationHandler, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
