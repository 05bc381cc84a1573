import Synchronization

/// A subject that holds a current value: each new subscriber first receives
/// the current value, then every event sent after it subscribed.
///
/// A subscriber that arrives after the subject stopped receives only the
/// terminal event; after `dispose()` it receives `RxError.disposed`.
///
/// Each event updates the current value at once, under the subject's lock, so
/// `value()` always returns the latest element sent, even when it is read
/// from inside a subscriber. Deliveries are serialised: a send (or a new
/// subscriber's current value) from another thread, or from inside a
/// subscriber, is delivered after the delivery under way has reached every
/// subscriber, by the thread already emitting. Events are delivered on the
/// thread that emits them; nothing reaches a subscription after it was disposed.
///
///     value 0    ----1----2----|
///     subscribe at "x":   x
///     receives:           1-2--|      (1 is the current value at subscription)
// @unchecked Sendable: every mutable field is read and written under `state`'s
// lock. Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = BehaviorSubject<Element>

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var element: Element
        var subscriptions = Bag<SubjectSubscription<Element>>()
        var stoppedEvent: Event<Element>?
        var isDisposed = false
        var deliveries = SerialDelivery<SubjectDelivery<Element>>()
    }

    private let state: Mutex<State>

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        state = Mutex(State(element: value))
        super.init()
    }

    /// `true` while at least one subscriber is subscribed.
    public var hasObservers: Bool {
        state.withLock { !$0.subscriptions.isEmpty }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current value.
    ///
    /// - Throws: the error the subject stopped with, or `RxError.disposed`
    ///   after `dispose()`. After completion it returns the last value.
    public func value() throws -> Element {
        try state.withLock { state throws -> Element in
            if state.isDisposed {
                throw RxError.disposed(object: "BehaviorSubject")
            }
            if let error = state.stoppedEvent?.error {
                throw error
            }
            return state.element
        }
    }

    /// Updates the current value (`.next`) or stops the subject, and emits
    /// `event` to the current subscribers. Ignored after a terminal event or
    /// after dispose.
    public func on(_ event: Event<Element>) {
        let first = state.locked { state -> SubjectDelivery<Element>? in
            if state.isDisposed || state.stoppedEvent != nil { return nil }
            let receivers = state.subscriptions.elements
            switch event {
            case .next(let element):
                state.element = element
            case .error, .completed:
                state.stoppedEvent = event
                state.subscriptions.removeAll()
            }
            return state.deliveries.begin(.broadcast(event, receivers))
        }
        drainSerially(first, next: nextDelivery) { $0.run() }
    }

    /// Subscribes `observer`: it receives the current value, then the events
    /// sent from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.locked { state -> (SubscribeOutcome<Element>, SubjectDelivery<Element>?) in
            if state.isDisposed {
                return (.stopped(.error(RxError.disposed(object: "BehaviorSubject"))), nil)
            }
            if let stoppedEvent = state.stoppedEvent {
                return (.stopped(stoppedEvent), nil)
            }
            let subscription = SubjectSubscription(observer, owner: self)
            subscription.key = state.subscriptions.insert(subscription)
            return (.subscribed(subscription), state.deliveries.begin(.replay([state.element], subscription)))
        }
        let disposable = outcome.0.finish(observer)
        drainSerially(outcome.1, next: nextDelivery) { $0.run() }
        return disposable
    }

    private func nextDelivery() -> SubjectDelivery<Element>? {
        state.withLock { $0.deliveries.next() }
    }

    func unsubscribe(_ key: BagKey) {
        _ = state.withLock { $0.subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    /// Drops every subscriber without a terminal event; later sends are
    /// ignored, later subscribers receive `RxError.disposed` and `value()`
    /// throws it.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.subscriptions.removeAll()
            state.stoppedEvent = nil
            state.deliveries.removePending()
        }
    }
}
