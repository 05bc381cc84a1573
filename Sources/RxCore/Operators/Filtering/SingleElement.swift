extension ObservableType {
    /// Emits the source's only element and completes when the source does.
    ///
    /// The element is emitted as soon as it arrives. A second element makes
    /// the result fail with `RxError.moreThanOneElement` (and disposes the
    /// upstream subscription); completing without an element makes it fail
    /// with `RxError.noElements`. Errors pass through. Disposing the result
    /// disposes the upstream subscription.
    ///
    ///     source:   --1-----|      --1--2--|       -----|
    ///     single(): --1-----|      --1--#          -----#
    public func single() -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: nil)
    }

    /// Emits the only element that satisfies `predicate` and completes when
    /// the source does.
    ///
    /// Elements that do not satisfy `predicate` are ignored. A second
    /// matching element makes the result fail with
    /// `RxError.moreThanOneElement`; completing without a match makes it fail
    /// with `RxError.noElements`. If `predicate` throws, the error is emitted
    /// and the upstream subscription is disposed.
    ///
    ///     source:             --1--2--3--|
    ///     single { $0 == 2 }: -----2-----|
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: predicate)
    }
}

private final class SingleAsyncSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let predicate: Predicate?
    private var seenValue = false

    init(predicate: Predicate?, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if let predicate {
                do {
                    guard try predicate(element) else { return }
                } catch {
                    forwardError(error)
                    return
                }
            }
            if seenValue {
                forwardOn(.error(RxError.moreThanOneElement))
                dispose()
                return
            }
            seenValue = true
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(seenValue ? .completed : .error(RxError.noElements))
            dispose()
        }
    }
}

private final class SingleAsync<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SingleAsyncSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
