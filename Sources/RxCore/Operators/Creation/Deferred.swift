extension ObservableType {
    /// An observable that calls `observableFactory` for every subscriber and
    /// subscribes the subscriber to the observable it returns.
    ///
    /// Events of that observable pass through. If `observableFactory` throws,
    /// the subscriber receives the error. Disposing disposes the subscription
    /// to the created observable.
    ///
    ///     factory() -> --1--2--|
    ///     deferred:    --1--2--|   (a fresh sequence per subscriber)
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Deferred(observableFactory: observableFactory)
    }
}

private final class DeferredSink<Observer: ObserverType>: ForwardingSink<Observer>, @unchecked Sendable {
    func run(_ observableFactory: () throws -> Observable<Element>) -> Disposable {
        do {
            let source = try observableFactory()
            return source.subscribe(self)
        } catch {
            forwardError(error)
            return Disposables.create()
        }
    }
}

private final class Deferred<Element>: Producer<Element> {
    private let observableFactory: () throws -> Observable<Element>

    init(observableFactory: @escaping () throws -> Observable<Element>) {
        self.observableFactory = observableFactory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DeferredSink(observer: observer, cancel: cancel)
        let subscription = sink.run(observableFactory)
        return (sink: sink, subscription: subscription)
    }
}
