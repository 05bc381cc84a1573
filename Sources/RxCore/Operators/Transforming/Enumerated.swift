extension ObservableType {
    /// Pairs each element with its index, counting from 0.
    ///
    /// Terminal events pass through. An index that would overflow `Int`
    /// becomes `RxError.overflow`.
    ///
    ///     source:       --a--b--c--|
    ///     enumerated(): --(0,a)--(1,b)--(2,c)--|
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Enumerated(source: asObservable())
    }
}

private final class EnumeratedSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == (index: Int, element: SourceType) {
    private var index = 0

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            let current = index
            let (next, overflow) = current.addingReportingOverflow(1)
            if overflow {
                forwardOn(.error(RxError.overflow))
                dispose()
                return
            }
            index = next
            forwardNext((index: current, element: element))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class Enumerated<Element>: Producer<(index: Int, element: Element)> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == (index: Int, element: Element) {
        let sink = EnumeratedSink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
