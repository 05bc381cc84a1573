import Synchronization

extension ObservableType {
    /// Combines each element of `self` with the latest element of `second`,
    /// using `resultSelector`.
    ///
    /// `second` is subscribed first. Elements of `self` that arrive before
    /// `second` emitted anything are dropped. Completes when `self`
    /// completes; `second` completing only ends its subscription (its latest
    /// element stays in use). An error from either ends the result. If
    /// `resultSelector` throws, the error is emitted and everything is
    /// disposed. Disposing disposes both subscriptions.
    ///
    ///     self:   --1----2--3--|
    ///     second: ----a-----b--
    ///     result: -------2a-3b-|
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Observable<ResultType> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// Emits the latest element of `second` each time `self` emits; see
    /// `withLatestFrom(_:resultSelector:)`.
    ///
    ///     self:   --1----2--3--|
    ///     second: ----a-----b--
    ///     result: -------a--b--|
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromProducer(first: asObservable(), second: second.asObservable(), resultSelector: { $1 })
    }
}

private final class WithLatestFromSink<FirstElement, SecondElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = FirstElement
    typealias ResultSelector = (FirstElement, SecondElement) throws -> Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Observer.Element>>()
        var latest: SecondElement?
    }

    private let resultSelector: ResultSelector
    private let state = Mutex(State())

    init(resultSelector: @escaping ResultSelector, observer: Observer, cancel: SinkDisposer) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(first: Observable<FirstElement>, second: Observable<SecondElement>) -> Disposable {
        let secondSubscription = SingleAssignmentDisposable()
        secondSubscription.setDisposable(second.subscribe(WithLatestFromSecondObserver(parent: self, subscription: secondSubscription)))
        let firstSubscription = first.subscribe(self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    func on(_ event: Event<FirstElement>) {
        switch event {
        case .next(let element):
            guard let latest = state.withLock({ $0.latest }) else { return }
            do {
                forwardSerially(.next(try resultSelector(element, latest)), in: state)
            } catch {
                forwardSerially(.error(error), in: state)
            }
        case .error(let error):
            forwardSerially(.error(error), in: state)
        case .completed:
            forwardSerially(.completed, in: state)
        }
    }

    fileprivate func secondOn(_ event: Event<SecondElement>, subscription: SingleAssignmentDisposable) {
        switch event {
        case .next(let element):
            state.withLock { $0.latest = element }
        case .error(let error):
            forwardSerially(.error(error), in: state)
        case .completed:
            subscription.dispose()
        }
    }
}

private struct WithLatestFromSecondObserver<FirstElement, SecondElement, Observer: ObserverType>: ObserverType {
    typealias Element = SecondElement

    let parent: WithLatestFromSink<FirstElement, SecondElement, Observer>
    let subscription: SingleAssignmentDisposable

    func on(_ event: Event<SecondElement>) {
        parent.secondOn(event, subscription: subscription)
    }
}

private final class WithLatestFromProducer<FirstElement, SecondElement, Result>: Producer<Result> {
    private let first: Observable<FirstElement>
    private let second: Observable<SecondElement>
    private let resultSelector: (FirstElement, SecondElement) throws -> Result

    init(first: Observable<FirstElement>, second: Observable<SecondElement>, resultSelector: @escaping (FirstElement, SecondElement) throws -> Result) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Result {
        let sink = WithLatestFromSink(resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first, second: second)
        return (sink: sink, subscription: subscription)
    }
}
