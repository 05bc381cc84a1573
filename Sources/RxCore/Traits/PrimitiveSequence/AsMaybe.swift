extension ObservableType {
    /// The sequence as a `Maybe`: its only element, or empty completion.
    ///
    /// Fails with `RxError.moreThanOneElement` (disposing the source) at a
    /// second element.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsMaybe(source: asObservable()))
    }
}

private final class AsMaybeSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private var element: Element?

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardOn(.error(RxError.moreThanOneElement))
                dispose()
                return
            }
            element = value
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if let element {
                forwardNext(element)
            }
            forwardCompleted()
        }
    }
}

private final class AsMaybe<Element>: Producer<Element> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = AsMaybeSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
