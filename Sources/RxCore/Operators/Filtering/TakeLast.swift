extension ObservableType {
    /// Emits the last `count` elements of the source when it completes.
    ///
    /// Keeps at most `count` elements; when the source completes, emits them
    /// in order and completes, all at that moment. An error is forwarded at
    /// once and the buffered elements are dropped. Disposing the result
    /// disposes the upstream subscription and drops the buffer. A negative
    /// `count` is a programmer error and traps.
    ///
    ///     source:       --1--2--3--4--|
    ///     takeLast(2):  --------------(34|)
    public func takeLast(_ count: Int) -> Observable<Element> {
        TakeLast(source: asObservable(), count: count)
    }
}

private final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let count: Int
    private var elements = RingQueue<Element>()

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.count = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            elements.enqueue(element)
            if elements.count > count {
                _ = elements.dequeue()
            }
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            while let element = elements.dequeue() {
                forwardNext(element)
            }
            forwardCompleted()
        }
    }
}

private final class TakeLast<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        precondition(count >= 0, "takeLast: count can't be negative")
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
