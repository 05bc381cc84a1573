extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: the inverse of
    /// `materialize()`.
    ///
    /// A `.next` element is emitted; an `.error` or `.completed` element ends
    /// the sequence with that event and disposes the source subscription. The
    /// source's own terminal events pass through.
    ///
    ///     source:          --n(1)--n(2)--c--
    ///     dematerialize(): --1-----2-----|
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(source: asObservable())
    }
}

private final class DematerializeSink<SourceType: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == SourceType.Element {
    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            let inner = element.event
            forwardOn(inner)
            if inner.isStopEvent {
                dispose()
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class Dematerialize<SourceType: EventConvertible>: Producer<SourceType.Element> {
    private let source: Observable<SourceType>

    init(source: Observable<SourceType>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == SourceType.Element {
        let sink = DematerializeSink<SourceType, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
