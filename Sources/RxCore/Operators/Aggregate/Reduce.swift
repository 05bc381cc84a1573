extension ObservableType {
    /// Folds every element into `seed` with `accumulator`; when the source
    /// completes, emits `mapResult` of the final value and completes.
    ///
    /// A source error passes through. If `accumulator` or `mapResult` throws,
    /// the error is emitted and the upstream subscription is disposed.
    ///
    ///     source:                              --1--2--3--|
    ///     reduce(0, accumulator: +) { $0 * 10 }: -----------60|
    public func reduce<A, Result>(
        _ seed: A,
        accumulator: @escaping (A, Element) throws -> A,
        mapResult: @escaping (A) throws -> Result
    ) -> Observable<Result> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds every element into `seed` with `accumulator`; when the source
    /// completes, emits the final value and completes.
    ///
    /// A source error passes through. If `accumulator` throws, the error is
    /// emitted and the upstream subscription is disposed.
    ///
    ///     source:                    --1--2--3--|
    ///     reduce(0, accumulator: +): -----------6|
    public func reduce<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

private final class ReduceSink<SourceType, Accumulate, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Result = Observer.Element

    private let accumulator: (Accumulate, SourceType) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result
    private var accumulated: Accumulate

    init(seed: Accumulate, accumulator: @escaping (Accumulate, SourceType) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result, observer: Observer, cancel: SinkDisposer) {
        self.accumulated = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            do {
                accumulated = try accumulator(accumulated, element)
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            do {
                let result = try mapResult(accumulated)
                forwardNext(result)
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
            dispose()
        }
    }
}

private final class Reduce<SourceType, Accumulate, Result>: Producer<Result> {
    private let source: Observable<SourceType>
    private let seed: Accumulate
    private let accumulator: (Accumulate, SourceType) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result

    init(source: Observable<SourceType>, seed: Accumulate, accumulator: @escaping (Accumulate, SourceType) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Result {
        let sink = ReduceSink(seed: seed, accumulator: accumulator, mapResult: mapResult, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
