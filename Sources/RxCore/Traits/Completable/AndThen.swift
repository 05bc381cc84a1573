extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Runs `second` after this completable completes; an error skips it.
    public func andThen<Result>(_ second: Single<Result>) -> Single<Result> {
        Single(raw: AndThen(first: primitiveSequence.source, second: second.asObservable()))
    }

    /// Runs `second` after this completable completes; an error skips it.
    public func andThen<Result>(_ second: Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: AndThen(first: primitiveSequence.source, second: second.asObservable()))
    }

    /// Runs `second` after this completable completes; an error skips it.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: AndThen(first: primitiveSequence.source, second: second.asObservable()))
    }

    /// Subscribes `second` after this completable completes; an error skips it.
    public func andThen<Result>(_ second: Observable<Result>) -> Observable<Result> {
        AndThen(first: primitiveSequence.source, second: second)
    }
}

private final class AndThenSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Never

    private let second: Observable<Observer.Element>
    private let subscription = SerialDisposable()

    init(second: Observable<Observer.Element>, observer: Observer, cancel: SinkDisposer) {
        self.second = second
        super.init(observer: observer, cancel: cancel)
    }

    func run(first: Observable<Never>) -> Disposable {
        let firstSubscription = SingleAssignmentDisposable()
        subscription.disposable = firstSubscription
        firstSubscription.setDisposable(first.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Never>) {
        switch event {
        case .next:
            return
        case .error(let error):
            forwardError(error)
        case .completed:
            subscription.disposable = second.subscribe(forwarder())
        }
    }
}

private final class AndThen<Element>: Producer<Element> {
    private let first: Observable<Never>
    private let second: Observable<Element>

    init(first: Observable<Never>, second: Observable<Element>) {
        self.first = first
        self.second = second
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = AndThenSink(second: second, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first)
        return (sink: sink, subscription: subscription)
    }
}
