import Synchronization

/// Whether `take(until:behavior:)` and `take(while:behavior:)` also emit the
/// element that ends the sequence.
public enum TakeBehavior {
    /// Emit the element that ends the sequence, then complete.
    case inclusive
    /// Complete without emitting the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Emits the source's elements until `other` emits an element.
    ///
    /// `other` is subscribed first, then the source. When `other` emits an
    /// element the result completes; when `other` fails the result fails;
    /// when `other` completes without an element it is unsubscribed and the
    /// source continues alone. The source's own terminal event passes through.
    /// Ending disposes both subscriptions; so does disposing the result.
    /// Events from the two sources are delivered one at a time, never
    /// concurrently.
    ///
    ///     source:             --1--2--3--4--|
    ///     other:              ---------x-----
    ///     take(until: other): --1--2--3|
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable())
    }

    /// Emits the source's elements until `predicate` returns `true`.
    ///
    /// The element for which `predicate` first returns `true` is emitted only
    /// with `.inclusive`; the result then completes and disposes the upstream
    /// subscription. Terminal events of the source pass through. If
    /// `predicate` throws, the error is emitted and the upstream subscription
    /// is disposed. Disposing the result disposes the upstream subscription.
    ///
    ///     source:                                --1--2--3--4--|
    ///     take(until: { $0 == 3 }):              --1--2--|
    ///     take(until: { $0 == 3 }, .inclusive):  --1--2--3|
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeUntilPredicate(source: asObservable(), behavior: behavior, predicate: predicate)
    }
}

// MARK: - take(until: other)

private struct TakeUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    typealias Element = Other

    let sink: TakeUntilSink<Other, Observer>

    func on(_ event: Event<Other>) {
        sink.otherOn(event)
    }
}

private final class TakeUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Element>>()
    }

    private let state = Mutex(State())
    private let otherSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        otherSubscription.setDisposable(other.subscribe(TakeUntilOtherObserver(sink: self)))
        let sourceSubscription = source.subscribe(self)
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        forwardSerially(event, in: state)
    }

    func onNext(_ element: Element) {
        forwardNextSerially(element, in: state)
    }

    func otherOn(_ event: Event<Other>) {
        switch event {
        case .next:
            forwardSerially(.completed, in: state)
        case .error(let error):
            forwardSerially(.error(error), in: state)
        case .completed:
            otherSubscription.dispose()
        }
    }
}

private final class TakeUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - take(until: predicate)

private final class TakeUntilPredicateSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let predicate: Predicate
    private let behavior: TakeBehavior
    private var running = true

    init(predicate: @escaping Predicate, behavior: TakeBehavior, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        self.behavior = behavior
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard running else { return }
            do {
                running = try !predicate(element)
            } catch {
                running = false
                forwardError(error)
                return
            }
            if running {
                forwardOn(event)
            } else {
                if behavior == .inclusive {
                    forwardOn(event)
                }
                forwardCompleted()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class TakeUntilPredicate<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let behavior: TakeBehavior
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.behavior = behavior
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeUntilPredicateSink(predicate: predicate, behavior: behavior, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
