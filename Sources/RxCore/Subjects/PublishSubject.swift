import Synchronization

/// A subject that emits to each subscriber the events sent after it subscribed.
///
/// A subscriber that arrives after the subject stopped receives the terminal
/// event at once; after `dispose()` it receives `RxError.disposed`. Events
/// are delivered on the thread that sends them. Emissions are serialised: a
/// send from another thread, or from inside a subscriber, waits until the
/// current event has reached every subscriber (and is then delivered by the
/// thread already emitting).
// @unchecked Sendable: every mutable field is read and written under `lock`'s
// lock. Elements go to each subscriber on the thread that emits them, as in
// RxSwift; the element type itself is not required to be Sendable.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectUnsubscribing, @unchecked Sendable {
    /// The subject is its own observer.
    public typealias Observer = PublishSubject<Element>

    // The state lives in plain stored properties guarded by one lock whose
    // type does not depend on `Element`: in generic code every mention of a
    // generic type (a state struct, an optional of an array...) costs a
    // metadata lookup, and the element path must not pay that per event.
    // For the same reason the emitter role is two plain fields here rather
    // than the shared `SerialDelivery`, which the other subjects use; the
    // rule is the same: one emitter at a time, queued events delivered in
    // order by the thread already emitting, nothing called under the lock.
    private let lock = Mutex<Void>(())
    private var subscriptions = Bag<SubjectSubscription<Element>>()
    /// The subscribers in order as an immutable list: an emission takes its
    /// snapshot by retaining the head, and walks it with plain field loads.
    /// Subscribing and unsubscribing only mark it stale; the next emission
    /// rebuilds it, so many subscribers come and go in O(1) each.
    private var receivers: ReceiverList<Element>?
    private var receiversAreStale = false
    private var stoppedEvent: Event<Element>?
    private var isStopped = false
    private var disposed = false
    private var isEmitting = false
    private var pending = RingQueue<Event<Element>>()
    /// `pending.count`, kept apart so the element path never touches the
    /// generic queue.
    private var pendingCount = 0

    /// Creates a subject with no subscribers.
    public override init() {
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

    /// Emits `event` to the current subscribers. Ignored after a terminal
    /// event or after dispose.
    public func on(_ event: Event<Element>) {
        var snapshot: ReceiverList<Element>?
        let emitNow = lock.withLock { _ -> Bool in
            if isEmitting {
                pending.enqueue(event)
                pendingCount += 1
                return false
            }
            isEmitting = true
            snapshot = apply(event)
            return true
        }
        guard emitNow else { return }
        deliver(event, to: snapshot)
        drainPending()
    }

    /// Emits `element` to the current subscribers: `on(.next(element))`
    /// without building the event when nobody else is emitting.
    public func onNext(_ element: Element) {
        var snapshot: ReceiverList<Element>?
        let emitNow = lock.withLock { _ -> Bool in
            if isEmitting { return false }
            isEmitting = true
            if !isStopped && !disposed {
                if receiversAreStale { rebuildReceivers() }
                snapshot = receivers
            }
            return true
        }
        guard emitNow else {
            enqueueNext(element)
            return
        }
        snapshot?.forEachSubscription { $0.deliverNext(element) }
        drainPending()
    }

    /// Rebuilds the subscriber list after subscriptions changed. Under the
    /// lock; out of line so the element path stays free of its generic work.
    @inline(never)
    private func rebuildReceivers() {
        receivers = ReceiverList.make(subscriptions.elements)
        receiversAreStale = false
    }

    /// Someone else is emitting: queue the element behind them.
    @inline(never)
    private func enqueueNext(_ element: Element) {
        on(.next(element))
    }

    /// Applies `event` to the state and returns who must receive it. Under the lock.
    private func apply(_ event: Event<Element>) -> ReceiverList<Element>? {
        if disposed || isStopped { return nil }
        if receiversAreStale { rebuildReceivers() }
        let snapshot = receivers
        if event.isStopEvent {
            isStopped = true
            stoppedEvent = event
            subscriptions.removeAll()
            receivers = nil
            receiversAreStale = false
        }
        return snapshot
    }

    private func deliver(_ event: Event<Element>, to snapshot: ReceiverList<Element>?) {
        snapshot?.forEachSubscription { $0.deliver(event) }
    }

    /// Releases the emitter role, first delivering the events queued while
    /// this thread was emitting.
    private func drainPending() {
        let more = lock.withLock { _ -> Bool in
            if pendingCount > 0 { return true }
            isEmitting = false
            return false
        }
        if more {
            drainQueuedEvents()
        }
    }

    @inline(never)
    private func drainQueuedEvents() {
        while true {
            var event: Event<Element>?
            var snapshot: ReceiverList<Element>?
            lock.withLock { _ in
                guard let next = pending.dequeue() else {
                    isEmitting = false
                    return
                }
                pendingCount -= 1
                event = next
                snapshot = apply(next)
            }
            guard let event else { return }
            deliver(event, to: snapshot)
        }
    }

    /// Subscribes `observer` to the events sent from now on.
    ///
    /// - Returns: a disposable that removes the subscriber.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        var outcome: SubscribeOutcome<Element>?
        lock.withLock { _ in
            if disposed {
                outcome = .stopped(.error(RxError.disposed(object: "PublishSubject")))
            } else if let stoppedEvent {
                outcome = .stopped(stoppedEvent)
            } else {
                let subscription = SubjectSubscription(observer, owner: self)
                subscription.key = subscriptions.insert(subscription)
                receiversAreStale = true
                outcome = .subscribed(subscription)
            }
        }
        return outcome!.finish(observer)
    }

    func unsubscribe(_ key: BagKey) {
        lock.withLock { _ in
            if subscriptions.removeKey(key) != nil {
                // Drop the list now: it still holds the departed subscriber,
                // whose observer may hold this subject (a cycle) until the
                // next emission rebuilds it.
                receivers = nil
                receiversAreStale = true
            }
        }
    }

    /// Returns the subject itself.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Drops every subscriber without a terminal event; later sends are ignored
    /// and later subscribers receive `RxError.disposed`.
    public func dispose() {
        lock.withLock { _ in
            disposed = true
            subscriptions.removeAll()
            receivers = nil
            receiversAreStale = false
            stoppedEvent = nil
        }
    }
}

/// An immutable singly linked list of a subject's subscribers.
final class ReceiverList<Element> {
    let subscription: SubjectSubscription<Element>
    let next: ReceiverList<Element>?

    init(_ subscription: SubjectSubscription<Element>, next: ReceiverList<Element>?) {
        self.subscription = subscription
        self.next = next
    }

    /// The list of `subscriptions` in order; `nil` when empty.
    static func make(_ subscriptions: [SubjectSubscription<Element>]) -> ReceiverList<Element>? {
        var head: ReceiverList<Element>?
        for subscription in subscriptions.reversed() {
            head = ReceiverList(subscription, next: head)
        }
        return head
    }

    /// Calls `body` with each subscription of the list that starts here, in order.
    ///
    /// The walk retains no node: the caller holds the head, and the head
    /// keeps every later node alive through `next`, which never changes. A
    /// walk through plain references would retain and release every node,
    /// the larger part of an emission to many subscribers.
    @inline(__always)
    func forEachSubscription(_ body: (SubjectSubscription<Element>) -> Void) {
        // The cursor is a raw pointer: an optional of a generic type such as
        // `Unmanaged<ReceiverList<Element>>?` would cost a metadata lookup
        // per node in this unspecialised code.
        var node = Unmanaged.passUnretained(self).toOpaque()
        while true {
            let next = Unmanaged<ReceiverList<Element>>.fromOpaque(node)._withUnsafeGuaranteedRef { current -> UnsafeMutableRawPointer? in
                body(current.subscription)
                if let next = current.next {
                    return Unmanaged.passUnretained(next).toOpaque()
                }
                return nil
            }
            guard let next else { return }
            node = next
        }
    }
}
