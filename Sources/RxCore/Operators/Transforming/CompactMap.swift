extension ObservableType {
    /// Transforms each element with `transform` and emits the non-`nil` results.
    ///
    /// Terminal events pass through. If `transform` throws, the error is
    /// emitted and the upstream subscription is disposed.
    ///
    ///     source:                 --"1"--"x"--"3"--|
    ///     compactMap { Int($0) }: --1---------3----|
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: transform)
    }
}

private final class CompactMapSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Transform = (SourceType) throws -> Observer.Element?

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            do {
                if let result = try transform(element) {
                    forwardNext(result)
                }
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class CompactMap<SourceType, Result>: Producer<Result> {
    private let source: Observable<SourceType>
    private let transform: (SourceType) throws -> Result?

    init(source: Observable<SourceType>, transform: @escaping (SourceType) throws -> Result?) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Result {
        let sink = CompactMapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
