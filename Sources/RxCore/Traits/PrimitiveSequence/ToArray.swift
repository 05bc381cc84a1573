extension ObservableType {
    /// Collects every element and emits the array when the source completes,
    /// as a `Single`. An error fails it.
    ///
    ///     source:   --1--2--3--|
    ///     toArray:  -----------[1,2,3]|
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArray(source: asObservable()))
    }
}

private final class ToArraySink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [Source] {
    private var elements: [Source] = []

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            elements.append(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardNext(elements)
            forwardCompleted()
        }
    }
}

private final class ToArray<Source>: Producer<[Source]> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == [Source] {
        let sink = ToArraySink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
