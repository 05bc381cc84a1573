extension ObservableType {
    /// Emits the source's elements; if the source completes without any,
    /// subscribes to `other` and emits its events instead.
    ///
    /// Errors of either pass through. The source subscription is kept until
    /// the whole subscription ends; disposing disposes both.
    ///
    ///     source:              ---|
    ///     other:                  -7-8-|
    ///     ifEmpty(switchTo: other): ----7-8-|
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other)
    }
}

private final class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let other: Observable<Element>
    private var isEmpty = true
    // Set when the source completed empty: events then come from `other`.
    private var isSwitched = false
    private let otherSubscription = SingleAssignmentDisposable()

    init(other: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.other = other
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        let subscription = source.subscribe(self)
        return Disposables.create(subscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if isEmpty && !isSwitched {
                isSwitched = true
                otherSubscription.setDisposable(other.subscribe(self))
                return
            }
            forwardCompleted()
        }
    }
}

private final class SwitchIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source)
        return (sink: sink, subscription: subscription)
    }
}
