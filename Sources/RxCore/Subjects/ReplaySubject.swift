import Synchronization

/// A subject that replays buffered elements: each new subscriber first
/// receives the last `bufferSize` elements (all of them, for
/// `createUnbounded()`), then every event sent after it subscribed.
///
/// A subscriber that arrives after the subject stopped receives the buffered
/// elements followed by the terminal event; after `dispose()` it receives
/// `RxError.disposed` (dispose also empties the buffer).
///
/// Each event updates the buffer at once, under the subject's lock.
/// Deliveries are serialised: a send (or a new subscriber's replay) from
/// another thread, or from inside a subscriber, is delivered after the
/// delivery under way has reached every subscriber, by the thread already
/// emitting. Nothing reaches a subscription after it was disposed.
///
///     create(bufferSize: 2)   --1--2--3--------4--|
///     subscribe at "x":                 x
///     receives:                         (23)---4--|
// @unchecked Sendable: every mutable field is read and written under `state`'s
// lock. Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = ReplaySubject<Element>

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var buffer = RingQueue<Element>()
        var subscriptions = Bag<SubjectSubscription<Element>>()
        var stoppedEvent: Event<Element>?
        var isDisposed = false
        var deliveries = SerialDelivery<SubjectDelivery<Element>>()
    }

    private let bufferSize: Int
    private let state = Mutex(State())

    private init(bufferSize: Int) {
        self.bufferSize = Swift.max(0, bufferSize)
        super.init()
    }

    /// Creates a subject that replays the last `bufferSize` elements to each
    /// new subscriber. A size of 0 (or less) replays no elements, only the
    /// terminal event.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: bufferSize)
    }

    /// Creates a subject that replays every element it ever received. Its
    /// buffer grows without bound.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// `true` while at least one subscriber is subscribed.
    public var hasObservers: Bool {
        state.withLock { !$0.subscriptions.isEmpty }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Buffers the element of a `.next` (dropping the oldest beyond
    /// `bufferSize`) or stops the subject, and emits `event` to the current
    /// subscribers. Ignored after a terminal event or after dispose.
    public func on(_ event: Event<Element>) {
        let first = state.locked { state -> SubjectDelivery<Element>? in
            if state.isDisposed || state.stoppedEvent != nil { return nil }
            let receivers = state.subscriptions.elements
            switch event {
            case .next(let element):
                if bufferSize > 0 {
                    state.buffer.enqueue(element)
                    while state.buffer.count > bufferSize {
                        _ = state.buffer.dequeue()
                    }
                }
            case .error, .completed:
                state.stoppedEvent = event
                state.subscriptions.removeAll()
            }
            return state.deliveries.begin(.broadcast(event, receivers))
        }
        drainSerially(first, next: nextDelivery) { $0.run() }
    }

    /// Subscribes `observer`: it receives the buffered elements, then the
    /// events sent from now on (or, once stopped, the terminal event).
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let outcome = state.locked { state -> ReplaySubscribeOutcome in
            if state.isDisposed {
                return .stopped([], .error(RxError.disposed(object: "ReplaySubject")))
            }
            if let stoppedEvent = state.stoppedEvent {
                return .stopped(state.buffer.elements, stoppedEvent)
            }
            let subscription = SubjectSubscription(observer, owner: self)
            subscription.key = state.subscriptions.insert(subscription)
            if state.buffer.isEmpty {
                return .subscribed(subscription, nil)
            }
            return .subscribed(subscription, state.deliveries.begin(.replay(state.buffer.elements, subscription)))
        }
        switch outcome {
        case .stopped(let elements, let event):
            for element in elements {
                observer.on(.next(element))
            }
            observer.on(event)
            return Disposables.create()
        case .subscribed(let subscription, let first):
            drainSerially(first, next: nextDelivery) { $0.run() }
            return subscription.disposable
        }
    }

    /// What `subscribe` decided under the lock.
    private enum ReplaySubscribeOutcome {
        /// Stopped (or disposed): replay these elements, then the event, at once.
        case stopped([Element], Event<Element>)
        /// Registered; run the delivery if this caller became the emitter.
        case subscribed(SubjectSubscription<Element>, SubjectDelivery<Element>?)
    }

    private func nextDelivery() -> SubjectDelivery<Element>? {
        state.withLock { $0.deliveries.next() }
    }

    func unsubscribe(_ key: BagKey) {
        _ = state.withLock { $0.subscriptions.removeKey(key) }
    }

    /// Returns the subject itself.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    /// Drops every subscriber without a terminal event and empties the
    /// buffer; later sends are ignored and later subscribers receive
    /// `RxError.disposed`.
    public func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.subscriptions.removeAll()
            state.buffer.removeAll()
            state.deliveries.removePending()
        }
    }
}
