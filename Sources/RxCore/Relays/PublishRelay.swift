/// A `PublishSubject` that only takes elements: it never completes and never
/// fails, so it suits state and UI events that must outlive any error.
///
/// Subscribers receive the elements accepted after they subscribed. Thread
/// safety and the serialised delivery are `PublishSubject`'s.
///
///     accept:    --1--2--3--
///     subscribe at "x": x
///     receives:          -2--3--
// @unchecked Sendable: all state lives in the wrapped subject, which is
// thread-safe. Elements go to each subscriber on the thread that emits them,
// as in RxSwift; the element type itself is not required to be Sendable.
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject = PublishSubject<Element>()

    /// Creates a relay with no subscribers.
    public init() {}

    /// Emits `element` to the current subscribers.
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// Subscribes `observer` to the elements accepted from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable; it never terminates.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
