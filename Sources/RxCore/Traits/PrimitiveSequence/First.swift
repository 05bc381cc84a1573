extension ObservableType {
    /// The first element as a `Single` of an optional: `nil` if the source
    /// completes empty. The source is disposed after its first element.
    public func first() -> Single<Element?> {
        Single(raw: First(source: asObservable()))
    }
}

private final class FirstSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Source? {
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            forwardNext(element)
            forwardCompleted()
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardNext(nil)
            forwardCompleted()
        }
    }
}

private final class First<Source>: Producer<Source?> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Source? {
        let sink = FirstSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
