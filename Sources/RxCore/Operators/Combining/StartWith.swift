extension ObservableType {
    /// Emits `elements` first, synchronously on subscribe, then the source's events.
    ///
    /// The source is subscribed after the prefix has been emitted; its
    /// terminal event passes through. Disposing disposes the source
    /// subscription.
    ///
    ///     source:          ----3--4--|
    ///     startWith(1, 2): 12--3--4--|
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

private final class StartWithSink<Observer: ObserverType>: ForwardingSink<Observer>, @unchecked Sendable {
    func run(elements: [Element], source: Observable<Element>) -> Disposable {
        for element in elements {
            forwardNext(element)
        }
        return source.subscribe(self)
    }
}

private final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = StartWithSink(observer: observer, cancel: cancel)
        let subscription = sink.run(elements: elements, source: source)
        return (sink: sink, subscription: subscription)
    }
}
