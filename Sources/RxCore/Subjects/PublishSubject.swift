import Synchronization

/// A subject that emits to each subscriber the events sent after it subscribed.
///
/// A subscriber that arrives after the subject stopped receives the terminal
/// event at once; after `dispose()` it receives `RxError.disposed`. Events
/// are delivered on the thread that sends them. Emissions are serialised: a
/// send from another thread, or from inside a subscriber, waits until the
/// current event has reached every subscriber (and is then delivered by the
/// thread already emitting).
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing {
    /// The subject is its own observer.
    public typealias Observer = PublishSubject<Element>

    private struct State {
        var subscriptions = Bag<SubjectSubscription<Element>>()
        var stoppedEvent: Event<Element>?
        var isDisposed = false
        var emission = SerialDelivery<Event<Element>>()

        /// Applies `event` and returns who must receive it.
        mutating func apply(_ event: Event<Element>) -> [SubjectSubscription<Element>] {
            if isDisposed || stoppedEvent != nil { return [] }
            let receivers = subscriptions.elements
            if event.isStopEvent {
                stoppedEvent = event
                subscriptions.removeAll()
            }
            return receivers
        }
    }

    private let state = Mutex(State())

    /// Creates a subject with no subscribers.
    public override init() {
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

    /// Emits `event` to the current subscribers. Ignored after a terminal
    /// event or after dispose.
    public func on(_ event: Event<Element>) {
        let first = state.withLock { state in
            state.emission.begin(event).map { ($0, state.apply($0)) }
        }
        drainSerially(first, next: nextDelivery) { event, receivers in
            dispatch(receivers, event)
        }
    }

    /// The next queued event and its receivers, picked when it is dequeued.
    private func nextDelivery() -> (Event<Element>, [SubjectSubscription<Element>])? {
        state.withLock { state in
            state.emission.next().map { ($0, state.apply($0)) }
        }
    }

    /// Subscribes `observer` to the events sent from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.withLock { state -> SubscribeOutcome<Element> in
            if state.isDisposed {
                return .stopped(.error(RxError.disposed(object: "PublishSubject")))
            }
            if let stoppedEvent = state.stoppedEvent {
                return .stopped(stoppedEvent)
            }
            let subscription = SubjectSubscription(observer, owner: self)
            subscription.key = state.subscriptions.insert(subscription)
            return .subscribed(subscription)
        }
        return outcome.finish(observer)
    }

    func unsubscribe(_ key: BagKey) {
        _ = state.withLock { $0.subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Drops every subscriber without a terminal event; later sends are ignored
    /// and later subscribers receive `RxError.disposed`.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.subscriptions.removeAll()
            state.stoppedEvent = nil
        }
    }
}
