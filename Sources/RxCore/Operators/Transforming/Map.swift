extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// Terminal events pass through. If `transform` throws, the error is
    /// emitted and the upstream subscription is disposed.
    ///
    ///     source:    --1--2--3--|
    ///     map(x*10): --10-20-30-|
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
    }
}

private final class MapSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Transform = (SourceType) throws -> Observer.Element

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func onNext(_ element: SourceType) {
        do {
            forwardNext(try transform(element))
        } catch {
            forwardError(error)
        }
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            onCompleted()
        }
    }

    func onCompleted() {
        forwardCompleted()
    }
}

private final class Map<SourceType, Result>: Producer<Result> {
    private let source: Observable<SourceType>
    private let transform: (SourceType) throws -> Result

    init(source: Observable<SourceType>, transform: @escaping (SourceType) throws -> Result) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Result {
        let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
