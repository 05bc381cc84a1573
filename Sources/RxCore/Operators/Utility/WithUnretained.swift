extension ObservableType {
    /// Pairs each element with `object`, held weakly, through `resultSelector`.
    ///
    /// `object` is not retained by the subscription. When an element arrives
    /// and `object` is gone, the result completes instead and the upstream
    /// subscription is disposed. Terminal events of the source pass through.
    /// Disposing the result disposes the upstream subscription.
    ///
    ///     source:                       --1--2--3--|
    ///     withUnretained(obj) { ... }:  --a--b--|       (obj freed between 2 and 3)
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        WithUnretained(source: asObservable(), object: object, resultSelector: resultSelector)
    }

    /// Pairs each element with `object`, held weakly, as `(object, element)`.
    ///
    /// When an element arrives and `object` is gone, the result completes
    /// instead and the upstream subscription is disposed.
    ///
    ///     source:               --1--2--3--|
    ///     withUnretained(obj):  --(o,1)--(o,2)--|   (obj freed between 2 and 3)
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }
}

private final class WithUnretainedSink<Object: AnyObject, SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias ResultSelector = (Object, SourceElement) -> Observer.Element

    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(object: Object?, resultSelector: @escaping ResultSelector, observer: Observer, cancel: SinkDisposer) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            guard let object else {
                forwardCompleted()
                return
            }
            forwardNext(resultSelector(object, element))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

private final class WithUnretained<Object: AnyObject, SourceElement, Out>: Producer<Out> {
    private let source: Observable<SourceElement>
    private weak var object: Object?
    private let resultSelector: (Object, SourceElement) -> Out

    init(source: Observable<SourceElement>, object: Object, resultSelector: @escaping (Object, SourceElement) -> Out) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Out {
        let sink = WithUnretainedSink(object: object, resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
