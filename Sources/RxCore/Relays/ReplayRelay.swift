/// A `ReplaySubject` that only takes elements: it never completes and never
/// fails.
///
/// Each new subscriber first receives the buffered elements (the last
/// `bufferSize`, or all of them for `createUnbounded()`), then every element
/// accepted after it subscribed. Thread safety and the serialised delivery
/// are `ReplaySubject`'s.
///
///     create(bufferSize: 2)   --1--2--3--------4--
///     subscribe at "x":                 x
///     receives:                         (23)---4--
// @unchecked Sendable: all state lives in the wrapped subject, which is
// thread-safe. Elements go to each subscriber on the thread that emits them,
// as in RxSwift; the element type itself is not required to be Sendable.
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// Creates a relay that replays the last `bufferSize` elements to each
    /// new subscriber.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// Creates a relay that replays every element it ever accepted. Its
    /// buffer grows without bound.
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// RxRelay's spelling of ``createUnbounded()``: a relay that replays
    /// every element it ever accepted.
    public static func createUnbound() -> ReplayRelay<Element> {
        createUnbounded()
    }

    /// Buffers `element` and emits it to the current subscribers.
    public func accept(_ element: Element) {
        subject.onNext(element)
    }

    /// Subscribes `observer`: it receives the buffered elements, then the
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
}
