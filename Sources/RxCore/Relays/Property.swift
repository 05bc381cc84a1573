/// A read-only view of a `BehaviorRelay` or a `Variable`: a current value
/// and its changes, with no way to set it.
///
/// A store keeps the relay private, hands writers a write-only face (an
/// `AnyObserver`, such as `input.asObserver()` of a subject bound to the
/// relay) and readers a `Property`, so the data flows one way: writers send
/// to the store, readers observe the property. Neither the property nor the observables it returns can be cast
/// back to something that sends.
///
/// Subscribing emits the current value, then every change; `changed` emits
/// only the changes. A relay never terminates, so neither does its property;
/// the property of a `Variable` completes when the variable is released
/// (the property does not keep it alive).
///
///     relay value 0   ----1----2--
///     asObservable():  0--1----2--   (subscribed at the start)
///     changed:         ---1----2--
// @unchecked Sendable: all state lives in the wrapped subject, which is
// thread-safe. Elements go to each subscriber on the thread that emits them,
// as in RxSwift; the element type itself is not required to be Sendable.
public final class Property<Element>: ObservableType, @unchecked Sendable {
    private let currentValue: () -> Element
    private let observable: Observable<Element>

    /// Creates a read-only view of `relay`.
    public init(_ relay: BehaviorRelay<Element>) {
        self.currentValue = { relay.value }
        self.observable = relay.readOnlyObservable()
    }

    /// Creates a read-only view of `variable`, which it does not keep
    /// alive: when the variable is released, the property's subscribers
    /// complete and `value` stays the last one.
    public init(_ variable: Variable<Element>) {
        (self.currentValue, self.observable) = variable.readOnlyView()
    }

    /// The current value.
    public var value: Element {
        currentValue()
    }

    /// Subscribes `observer`: it receives the current value, then every change.
    ///
    /// - Returns: a disposable that ends the subscription.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observable.subscribe(observer)
    }

    /// The current value followed by every change.
    public func asObservable() -> Observable<Element> {
        observable
    }

    /// Every change after the moment of subscription, without the current value.
    public var changed: Observable<Element> {
        PropertyChanges(source: observable)
    }
}

/// Drops the first element, which a `BehaviorSubject` always delivers first
/// (the current value), before any change.
private final class PropertyChangesSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // Deliveries from the subject are serialised, so a plain flag suffices.
    private var seenCurrentValue = false

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if seenCurrentValue {
                forwardOn(event)
            } else {
                seenCurrentValue = true
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class PropertyChanges<Element>: Producer<Element> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = PropertyChangesSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
