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
// @unchecked Sendable: every mutable field is read and written under `lock`.
// Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = BehaviorSubject<Element>

    // The state lives in plain stored properties guarded by one lock whose
    // type does not depend on `Element`, as in `PublishSubject`: this code
    // runs unspecialised for most callers, where a lock over a state struct
    // holding an `Element` costs a metadata lookup of the struct, its lock
    // and their parts on every call (`hasObservers` alone, which `Server`
    // asks at each accept and close, cost 1,600 instructions a connection).
    private let lock = Mutex<Void>(())
    private var element: Element
    private var subscriptions = Bag<SubjectSubscription<Element>>()
    private var stoppedEvent: Event<Element>?
    private var disposed = false
    private var deliveries = SerialDelivery<SubjectDelivery<Element>>()

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// `true` while at least one subscriber is subscribed.
    public var hasObservers: Bool {
        lock.withLock { _ in !subscriptions.isEmpty }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.withLock { _ in disposed }
    }

    /// The current value.
    ///
    /// - Throws: the error the subject stopped with, or `RxError.disposed`
    ///   after `dispose()`. After completion it returns the last value.
    public func value() throws -> Element {
        try lock.withLock { _ throws -> Element in
            if disposed {
                throw RxError.disposed(object: "BehaviorSubject")
            }
            if let error = stoppedEvent?.error {
                throw error
            }
            return element
        }
    }

    /// Updates the current value (`.next`) or stops the subject, and emits
    /// `event` to the current subscribers. Ignored after a terminal event or
    /// after dispose.
    public func on(_ event: Event<Element>) {
        var first: SubjectDelivery<Element>?
        lock.withLock { _ in
            if disposed || stoppedEvent != nil { return }
            let receivers = subscriptions.elements
            switch event {
            case .next(let next):
                element = next
            case .error, .completed:
                stoppedEvent = event
                subscriptions.removeAll()
            }
            first = deliveries.begin(.broadcast(event, receivers))
        }
        drainSerially(first, next: nextDelivery) { $0.run() }
    }

    /// Subscribes `observer`: it receives the current value, then the events
    /// sent from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        var outcome: SubscribeOutcome<Element>?
        var first: SubjectDelivery<Element>?
        lock.withLock { _ in
            if disposed {
                outcome = .stopped(.error(RxError.disposed(object: "BehaviorSubject")))
            } else if let stoppedEvent {
                outcome = .stopped(stoppedEvent)
            } else {
                let subscription = SubjectSubscription(observer, owner: self)
                subscription.key = subscriptions.insert(subscription)
                outcome = .subscribed(subscription)
                first = deliveries.begin(.replay([element], subscription))
            }
        }
        let disposable = outcome!.finish(observer)
        drainSerially(first, next: nextDelivery) { $0.run() }
        return disposable
    }

    private func nextDelivery() -> SubjectDelivery<Element>? {
        var next: SubjectDelivery<Element>?
        lock.withLock { _ in next = deliveries.next() }
        return next
    }

    func unsubscribe(_ key: BagKey) {
        lock.withLock { _ in _ = subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    /// Drops every subscriber without a terminal event; later sends are
    /// ignored, later subscribers receive `RxError.disposed` and `value()`
    /// throws it.
    public func dispose() {
        lock.withLock { _ in
            disposed = true
            subscriptions.removeAll()
            stoppedEvent = nil
            deliveries.removePending()
        }
    }
}
