extension ObservableType {
    /// Skips elements while `predicate` returns `true`, then emits every
    /// element from the first one for which it returns `false`.
    ///
    /// `predicate` is not called again once an element has been emitted.
    /// Terminal events pass through. If `predicate` throws, the error is
    /// emitted and the upstream subscription is disposed. Disposing the result
    /// disposes the upstream subscription.
    ///
    ///     source:                   --1--2--3--1--|
    ///     skip(while: { $0 < 3 }):  --------3--1--|
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhile(source: asObservable(), predicate: predicate)
    }
}

private final class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let predicate: Predicate
    private var running = false

    init(predicate: @escaping Predicate, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if !running {
                do {
                    running = try !predicate(element)
                } catch {
                    forwardError(error)
                    return
                }
            }
            if running {
                forwardOn(event)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class SkipWhile<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
