import Synchronization

extension ObservableType {
    /// Maps each element to an observable and emits the elements of the most
    /// recent one only.
    ///
    /// When a new element arrives, the previous inner is disposed before the
    /// new one is subscribed. Completes when the source and the current inner
    /// completed; an error from the source or the current inner ends the
    /// result. If `selector` throws, the error is emitted and everything is
    /// disposed. Disposing disposes the source and the current inner.
    ///
    ///     source:        -1----2-----|
    ///     f(1):           -a--a-a      (disposed when 2 arrives)
    ///     f(2):                 -b--b|
    ///     flatMapLatest: --a--a--b--b|
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        SwitchProducer(source: asObservable(), selector: selector)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of the most recent inner observable only.
    ///
    /// When the outer sequence emits a new inner, the previous one is disposed
    /// before the new one is subscribed. Completes when the outer sequence
    /// and the current inner completed; an error from either ends the result.
    /// Disposing disposes the outer and the current inner subscription.
    ///
    ///     outer:        -a----b-----|
    ///     a:             -1--1-1       (disposed when b arrives)
    ///     b:                  -2--2|
    ///     switchLatest: --1--1--2--2|
    public func switchLatest() -> Observable<Element.Element> {
        SwitchProducer(source: asObservable(), selector: { $0 })
    }
}

private final class SwitchSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Selector = (SourceElement) throws -> Inner

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Observer.Element>>()
        /// The id of the current inner; events of older inners are dropped.
        var latest = 0
        var hasLatest = false
        var isSourceDone = false
    }

    private let selector: Selector
    private let state = Mutex(State())
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()

    init(selector: @escaping Selector, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element).asObservable()
            } catch {
                forwardSerially(.error(error), in: state)
                return
            }
            let id = state.withLock { state -> Int? in
                if state.delivery.isStopped { return nil }
                state.latest &+= 1
                state.hasLatest = true
                return state.latest
            }
            guard let id else { return }
            let subscription = SingleAssignmentDisposable()
            // Disposes the previous inner before the new one is subscribed.
            innerSubscription.disposable = subscription
            subscription.setDisposable(inner.subscribe(SwitchInnerObserver(parent: self, id: id, subscription: subscription)))
        case .error(let error):
            forwardSerially(.error(error), in: state)
        case .completed:
            sourceSubscription.dispose()
            let first = state.withLock { state -> Event<Observer.Element>? in
                state.isSourceDone = true
                return state.hasLatest ? nil : state.delivery.accept(.completed)
            }
            forwardSerially(accepted: first, in: state)
        }
    }

    fileprivate func innerOn(_ event: Event<Observer.Element>, id: Int) {
        let first = state.locked { state -> Event<Observer.Element>? in
            guard state.latest == id else { return nil }
            switch event {
            case .next, .error:
                return state.delivery.accept(event)
            case .completed:
                state.hasLatest = false
                return state.isSourceDone ? state.delivery.accept(event) : nil
            }
        }
        forwardSerially(accepted: first, in: state)
    }
}

private struct SwitchInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Inner.Element == Observer.Element {
    typealias Element = Observer.Element

    let parent: SwitchSink<SourceElement, Inner, Observer>
    let id: Int
    let subscription: SingleAssignmentDisposable

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            subscription.dispose()
        }
        parent.innerOn(event, id: id)
    }
}

private final class SwitchProducer<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Inner.Element {
        let sink = SwitchSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
