extension ObservableType {
    /// Emits every intermediate result of folding the elements into `seed`
    /// with `accumulator`, which mutates the accumulated value in place.
    ///
    /// Terminal events pass through; the seed itself is not emitted. If
    /// `accumulator` throws, the error is emitted and the upstream subscription
    /// is disposed.
    ///
    ///     source:                   --1--2--3--|
    ///     scan(into: 0) { $0 += $1 }: --1--3--6--|
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Emits every intermediate result of folding the elements into `seed`
    /// with `accumulator`.
    ///
    /// Terminal events pass through; the seed itself is not emitted. If
    /// `accumulator` throws, the error is emitted and the upstream subscription
    /// is disposed.
    ///
    ///     source:     --1--2--3--|
    ///     scan(0, +): --1--3--6--|
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        Scan(source: asObservable(), seed: seed) { accumulated, element in
            accumulated = try accumulator(accumulated, element)
        }
    }
}

private final class ScanSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Accumulate = Observer.Element
    typealias Accumulator = (inout Accumulate, SourceType) throws -> Void

    private let accumulator: Accumulator
    @exclusivity(unchecked)
    private var accumulated: Accumulate

    init(seed: Accumulate, accumulator: @escaping Accumulator, observer: Observer, cancel: SinkDisposer) {
        self.accumulated = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    func onNext(_ element: SourceType) {
        do {
            try accumulator(&accumulated, element)
            forwardNext(accumulated)
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

private final class Scan<SourceType, Accumulate>: Producer<Accumulate> {
    typealias Accumulator = (inout Accumulate, SourceType) throws -> Void

    private let source: Observable<SourceType>
    private let seed: Accumulate
    private let accumulator: Accumulator

    init(source: Observable<SourceType>, seed: Accumulate, accumulator: @escaping Accumulator) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Accumulate {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
