extension ObservableType {
    /// Ignores every element and forwards only the terminal event.
    ///
    /// The result is an `Observable<Never>`: it can only complete or fail,
    /// when the source does. Disposing the result disposes the upstream
    /// subscription.
    ///
    ///     source:           --1--2--3--|
    ///     ignoreElements(): -----------|
    public func ignoreElements() -> Observable<Never> {
        IgnoreElements(source: asObservable())
    }
}

private final class IgnoreElementsSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Never {
    func onNext(_ element: SourceElement) {}

    func onCompleted() {
        forwardCompleted()
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class IgnoreElements<SourceElement>: Producer<Never> {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Never {
        let sink = IgnoreElementsSink<SourceElement, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
