/// A type-erased observer: forwards every event to the wrapped observer or closure.
///
/// Use it as the write-only face of a store or subject (`subject.asObserver()`).
///
/// It is `Sendable`: the observer that `Observable.create` hands to its
/// subscribe closure may be called from whichever thread the source runs on
/// (a loop callback, a Task, a Dispatch queue), one event at a time, which is
/// Rx's contract for every observer.
// @unchecked Sendable: it holds the observer's `on`, which Rx's grammar
// calls serially; the closure is not `@Sendable` so that RxSwift code that
// builds an `AnyObserver(eventHandler:)` from an ordinary closure compiles.
public struct AnyObserver<Element>: ObserverType, @unchecked Sendable {
    /// The signature of the event handler.
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler

    /// Creates an observer that calls `eventHandler` for every event.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// Creates an observer that forwards every event to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
    }

    /// Forwards `event` to the wrapped observer.
    public func on(_ event: Event<Element>) {
        self.observer(event)
    }

    /// Returns `self`.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

extension ObserverType {
    /// Erases the type of this observer.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// An observer that transforms each element with `transform` before
    /// forwarding it to `self`. A throwing transform forwards `.error`.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}
