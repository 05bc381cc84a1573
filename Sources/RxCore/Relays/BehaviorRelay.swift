/// A `BehaviorSubject` that only takes elements: it holds a current value,
/// never completes and never fails.
///
/// Each new subscriber first receives the current value, then every element
/// accepted after it subscribed. `value` reads the latest accepted element at
/// once, even from inside a subscriber. Thread safety and the serialised
/// delivery are `BehaviorSubject`'s. Hand out a `Property` to give read-only
/// access.
///
///     value 0   ----1----2--
///     subscribe at "x":  x
///     receives:          1-2--
// @unchecked Sendable: all state lives in the wrapped subject, which is
// thread-safe. Elements go to each subscriber on the thread that emits them,
// as in RxSwift; the element type itself is not required to be Sendable.
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // The subject is never stopped nor disposed, so `value()` cannot throw.
        try! subject.value()
    }

    /// Makes `element` the current value and emits it to the current subscribers.
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// Subscribes `observer`: it receives the current value, then the
    /// elements accepted from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable; it never terminates.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }

    /// A read-only observable over the relay's subject, which cannot be cast
    /// back to something that sends (used by `Property`).
    func readOnlyObservable() -> Observable<Element> {
        ReadOnlySubjectView(subject)
    }
}

/// An observable that forwards subscriptions to a subject without exposing it.
final class ReadOnlySubjectView<Element>: Observable<Element> {
    private let subject: BehaviorSubject<Element>

    init(_ subject: BehaviorSubject<Element>) {
        self.subject = subject
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }
}
