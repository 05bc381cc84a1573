extension ObservableType {
    /// An observable that creates a resource for each subscriber and keeps it
    /// for exactly as long as the subscription lives.
    ///
    /// On subscribe, `resourceFactory` creates the resource and
    /// `observableFactory` makes the observable to subscribe to from it; its
    /// events pass through. When the subscription ends (terminal event or
    /// dispose) the inner subscription is disposed, then the resource. If a
    /// factory throws, the error is emitted (and a resource already created is
    /// disposed).
    ///
    ///     resource:  [created ........ disposed]
    ///     using:     --1--2--3--|
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Using(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

private final class UsingSink<Resource: Disposable, Observer: ObserverType>: ForwardingSink<Observer>, @unchecked Sendable {
    func run(resourceFactory: () throws -> Resource, observableFactory: (Resource) throws -> Observable<Element>) -> Disposable {
        var resource: Disposable?
        do {
            let created = try resourceFactory()
            resource = created
            let source = try observableFactory(created)
            return Disposables.create(source.subscribe(self), created)
        } catch {
            let subscription = Observable<Element>.error(error).subscribe(self)
            guard let resource else { return subscription }
            return Disposables.create(subscription, resource)
        }
    }
}

private final class Using<Resource: Disposable, Element>: Producer<Element> {
    private let resourceFactory: () throws -> Resource
    private let observableFactory: (Resource) throws -> Observable<Element>

    init(resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = UsingSink<Resource, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(resourceFactory: resourceFactory, observableFactory: observableFactory)
        return (sink: sink, subscription: subscription)
    }
}
