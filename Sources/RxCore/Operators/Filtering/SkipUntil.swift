import Synchronization

extension ObservableType {
    /// Skips the source's elements until `other` emits an element, then emits
    /// the rest.
    ///
    /// The source is subscribed first, then `other`. `other` is unsubscribed
    /// after its first element or its completion; if `other` completes without
    /// an element, the result never emits. An error of either source is
    /// emitted. The source's completion is emitted only once `other` has
    /// emitted; otherwise the result just ends silently (both subscriptions
    /// are disposed). Disposing the result disposes both subscriptions.
    /// Events from the two sources are delivered one at a time, never
    /// concurrently.
    ///
    ///     source:             --1--2--3--4--|
    ///     other:              ------x--------
    ///     skip(until: other): --------3--4--|
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntil(source: asObservable(), other: other.asObservable())
    }
}

private struct SkipUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    typealias Element = Other

    let sink: SkipUntilSink<Other, Observer>

    func on(_ event: Event<Other>) {
        sink.otherOn(event)
    }
}

private final class SkipUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Element>>()
        var forwardElements = false
    }

    private let state = Mutex(State())
    private let otherSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let sourceSubscription = source.subscribe(self)
        otherSubscription.setDisposable(other.subscribe(SkipUntilOtherObserver(sink: self)))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        // Returns the event to deliver now, or `nil`; `endSilently` is set
        // when the source completed before `other` emitted.
        var endSilently = false
        let first = state.locked { state -> Event<Element>? in
            switch event {
            case .next:
                return state.forwardElements ? state.delivery.accept(event) : nil
            case .error:
                return state.delivery.accept(event)
            case .completed:
                if state.forwardElements {
                    return state.delivery.accept(event)
                }
                endSilently = !state.delivery.isStopped
                state.delivery.stop()
                return nil
            }
        }
        if endSilently {
            dispose()
        } else {
            forwardSerially(accepted: first, in: state)
        }
    }

    func otherOn(_ event: Event<Other>) {
        switch event {
        case .next:
            state.withLock { $0.forwardElements = true }
            otherSubscription.dispose()
        case .error(let error):
            forwardSerially(.error(error), in: state)
        case .completed:
            otherSubscription.dispose()
        }
    }
}

private final class SkipUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink: sink, subscription: subscription)
    }
}
