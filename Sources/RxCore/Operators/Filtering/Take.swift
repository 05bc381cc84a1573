extension ObservableType {
    /// Emits the first `count` elements, then completes.
    ///
    /// Completes right after the `count`-th element (disposing the upstream
    /// subscription), or when the source completes earlier. Errors pass
    /// through. `take(0)` completes at once without subscribing to the source.
    /// Disposing the result disposes the upstream subscription. A negative
    /// `count` is a programmer error and traps.
    ///
    ///     source:  --1--2--3--4--|
    ///     take(2): --1--2|
    public func take(_ count: Int) -> Observable<Element> {
        if count == 0 {
            return Observable<Element>.empty()
        }
        return TakeCount(source: asObservable(), count: count)
    }
}

private final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard remaining > 0 else { return }
            // Count first, so an element sent re-entrantly from downstream
            // sees the updated budget.
            remaining -= 1
            forwardOn(event)
            if remaining == 0 {
                forwardCompleted()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class TakeCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        precondition(count >= 0, "take: count can't be negative")
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
