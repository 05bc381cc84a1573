extension ObservableType {
    /// Turns every event of the source, terminal ones included, into an
    /// element; after the terminal event's element, completes.
    ///
    /// The result never fails. Disposing disposes the source subscription.
    ///
    ///     source:        --1--2--#
    ///     materialize(): --n(1)--n(2)--e(#)|
    public func materialize() -> Observable<Event<Element>> {
        Materialize(source: asObservable())
    }
}

private final class MaterializeSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Event<SourceType> {
    func on(_ event: Event<SourceType>) {
        forwardNext(event)
        if event.isStopEvent {
            forwardCompleted()
        }
    }
}

private final class Materialize<Element>: Producer<Event<Element>> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Event<Element> {
        let sink = MaterializeSink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
