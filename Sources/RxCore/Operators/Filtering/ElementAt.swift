extension ObservableType {
    /// Emits only the element at position `index` (counting from zero), then
    /// completes.
    ///
    /// Completes right after that element and disposes the upstream
    /// subscription. If the source completes first, the result fails with
    /// `RxError.argumentOutOfRange`. Errors pass through. Disposing the result
    /// disposes the upstream subscription. A negative `index` is a programmer
    /// error and traps.
    ///
    ///     source:         --a--b--c--|
    ///     element(at: 1): -----b|
    ///     element(at: 5): -----------#  (argumentOutOfRange)
    public func element(at index: Int) -> Observable<Element> {
        ElementAt(source: asObservable(), index: index)
    }
}

private final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private var remaining: Int

    init(index: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = index
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining == 0 {
                remaining = -1
                forwardOn(event)
                forwardCompleted()
            } else if remaining > 0 {
                remaining -= 1
            }
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(.error(RxError.argumentOutOfRange))
            dispose()
        }
    }
}

private final class ElementAt<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        precondition(index >= 0, "element(at:): index can't be negative")
        self.source = source
        self.index = index
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
