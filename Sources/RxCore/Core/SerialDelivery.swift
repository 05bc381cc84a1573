import Synchronization

/// The one serialiser of RxCore: it makes sure a downstream (an observer, a
/// subject's subscribers, an operator's windows) is called by one thread at a
/// time, in order, and never while a lock is held.
///
/// It lives inside the owner's `Mutex`-protected state, so the decision to
/// deliver something is taken in the same critical section as the state
/// change that caused it. Under the lock, whoever has an item calls
/// `begin(_:)` (or `accept(_:)` for events): when it returns the item, the
/// caller has become the emitter and, after unlocking, delivers it and keeps
/// taking `next()` (each time under the lock) until that returns `nil`, which
/// also releases the emitter role. `drainSerially(_:next:deliver:)` and
/// `Sink.forwardSerially(accepted:in:)` are that loop. Items produced meanwhile,
/// by another thread or re-entrantly by the downstream, are queued and
/// delivered by the current emitter, in the order they were begun.
///
/// `Item` is whatever one delivery needs:
/// - an `Event` for a sink's observer (merge, flatMap, take(until:), debounce,
///   combineLatest...), or for a subject that applies each event to its
///   subscriber list when it is dequeued (`PublishSubject`);
/// - a `SubjectDelivery` for subjects that apply each event to their state at
///   once (`BehaviorSubject`, `ReplaySubject`, `share`): the item then carries
///   its receivers, fixed at enqueue time, so that variant needs no second
///   serialiser, only a richer item;
/// - an operator's own enum when one emitter feeds several downstreams
///   (`window` delivers to the current window and to the outer observer).
///
/// The uncontended path allocates nothing: the queue's ring buffer is only
/// allocated when an item actually has to wait, and keeps its capacity.
struct SerialDelivery<Item> {
    private var pending = RingQueue<Item>()
    private var isEmitting = false
    /// `true` once `stop()` was called, or `accept(_:)` took a terminal event:
    /// `begin(_:)` and `accept(_:)` then refuse everything.
    private(set) var isStopped = false

    init() {}

    /// Returns `item` when the caller becomes the emitter and must deliver it
    /// now (after unlocking); otherwise queues it for the current emitter and
    /// returns `nil`. Returns `nil` without queueing once stopped.
    @inline(__always)
    mutating func begin(_ item: Item) -> Item? {
        if isStopped { return nil }
        if isEmitting {
            pending.enqueue(item)
            return nil
        }
        isEmitting = true
        return item
    }

    /// Takes the emitter role without an item when nobody holds it and
    /// nothing stopped: the caller then delivers its element as it is (no
    /// `Item` built, the uncontended element path) and drains with
    /// `next()`. Returns `false` otherwise, and the caller hands its item
    /// to `begin(_:)` or `accept(_:)` as usual (queued or refused).
    @inline(__always)
    mutating func claim() -> Bool {
        if isStopped || isEmitting { return false }
        isEmitting = true
        return true
    }

    /// The next queued item, or `nil`, in which case the emitter role is released.
    @inline(__always)
    mutating func next() -> Item? {
        if let item = pending.dequeue() {
            return item
        }
        isEmitting = false
        return nil
    }

    /// Releases the emitter role when nothing is queued, and says so;
    /// `false` leaves the role with the caller, which then drains the queue
    /// with `next()`. The uncontended end of a delivery: it reads no `Item`,
    /// so unspecialised callers look up no type metadata for one.
    @inline(__always)
    mutating func releaseIfIdle() -> Bool {
        if pending.isEmpty {
            isEmitting = false
            return true
        }
        return false
    }

    /// Refuses every later item. Items already queued are still delivered.
    mutating func stop() {
        isStopped = true
    }

    /// Drops the queued items (the one being delivered is not affected).
    mutating func removePending() {
        pending.removeAll()
    }
}

extension SerialDelivery {
    /// `begin(_:)` for a sequence's events: after a terminal event has been
    /// accepted, every later event is refused, so nothing is ever queued
    /// behind a terminal event.
    @inline(__always)
    mutating func accept<Element>(_ event: Event<Element>) -> Event<Element>? where Item == Event<Element> {
        let first = begin(event)
        if event.isStopEvent {
            isStopped = true
        }
        return first
    }
}

extension SerialDelivery {
    /// Accepts `element`, if any, then `.completed`, in the caller's one
    /// critical section: an operator's last element and its completion.
    /// Returns what the first `accept` returned, for the caller to deliver.
    @inline(__always)
    mutating func acceptLast<Element>(_ element: Element?) -> Event<Element>? where Item == Event<Element> {
        let first = element.flatMap { accept(.next($0)) }
        let completed = accept(.completed)
        return first ?? completed
    }
}

/// The emitter loop: delivers `first` (when the caller became the emitter;
/// `nil` does nothing) and then every item `next` hands out, until it returns
/// `nil`. `next` must take the owner's lock and call `SerialDelivery.next()`
/// (it may also read state in the same critical section, as `PublishSubject`
/// does to pick the receivers). Both closures are non-escaping: the loop
/// allocates nothing.
@inline(__always)
func drainSerially<Item>(_ first: Item?, next: () -> Item?, deliver: (Item) -> Void) {
    var current = first
    while let item = current {
        deliver(item)
        current = next()
    }
}

/// The `Mutex`-protected state of a sink that serialises its downstream
/// with a `SerialDelivery`: the state the sink's other decisions are taken
/// in holds the delivery too, so they share one critical section. It is
/// `Sendable` (each conforming struct unchecked: only its lock touches it).
protocol SerialDeliveryState: Sendable {
    associatedtype Item
    /// The sink's serialiser.
    var delivery: SerialDelivery<Item> { get set }
}

extension Sink {
    /// Accepts `event` into `state`'s delivery and, if the caller became the
    /// emitter, forwards it and everything queued meanwhile (see
    /// `forwardSerially(accepted:in:)`).
    @inline(__always)
    final func forwardSerially<State: SerialDeliveryState>(_ event: Event<Observer.Element>, in state: borrowing Mutex<State>) where State.Item == Event<Observer.Element> {
        forwardSerially(accepted: state.locked { $0.delivery.accept(event) }, in: state)
    }

    /// Forwards `element` through `state`'s delivery: at once, without an
    /// `Event`, when the caller can take the emitter role (`claim()`), then
    /// whatever was queued meanwhile; otherwise queued behind the current
    /// emitter (or dropped once stopped), as `forwardSerially(.next(element))`.
    @inline(__always)
    final func forwardNextSerially<State: SerialDeliveryState>(_ element: Observer.Element, in state: borrowing Mutex<State>) where State.Item == Event<Observer.Element> {
        guard state.locked({ $0.delivery.claim() }) else {
            queueNext(element, in: state)
            return
        }
        forwardNext(element)
        if !state.locked({ $0.delivery.releaseIfIdle() }) {
            drainQueued(in: state)
        }
    }

    /// Delivers what was queued while this sink's emitter delivered an
    /// element: out of line, so that the uncontended path holds no
    /// `Event` (in unspecialised code, each would look up its metadata).
    @inline(never)
    final func drainQueued<State: SerialDeliveryState>(in state: borrowing Mutex<State>) where State.Item == Event<Observer.Element> {
        forwardSerially(accepted: state.withLock { $0.delivery.next() }, in: state)
    }

    /// The contended half of `forwardNextSerially`: out of line, so the
    /// `Event` it builds costs the uncontended path nothing.
    @inline(never)
    final func queueNext<State: SerialDeliveryState>(_ element: Observer.Element, in state: borrowing Mutex<State>) where State.Item == Event<Observer.Element> {
        forwardSerially(.next(element), in: state)
    }

    /// The emitter loop of a sink: forwards `first` (what `accept` or `begin`
    /// returned to the caller, under `state`'s lock, when it became the
    /// emitter; `nil` does nothing), then every event queued meanwhile, each
    /// taken under the lock. A terminal event disposes the sink right after it
    /// is forwarded; the loop still runs until the queue is empty, to release
    /// the emitter role (events queued behind a terminal one are dropped by
    /// `forwardOn`).
    @inline(__always)
    final func forwardSerially<State: SerialDeliveryState>(accepted first: Event<Observer.Element>?, in state: borrowing Mutex<State>) where State.Item == Event<Observer.Element> {
        drainSerially(first, next: { state.withLock { $0.delivery.next() } }) { event in
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
        }
    }
}
