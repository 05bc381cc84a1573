/// Serialises the deliveries of an operator whose events come from more than
/// one place (its upstream and its timers, or two upstreams).
///
/// Lives inside the operator's `Mutex`-protected state. Whoever produces an
/// item calls `begin(_:)` under the lock; if it returns the item, the caller
/// has become the emitter and, after unlocking, delivers it and then keeps
/// taking `next()` (each under the lock) until that returns `nil`. Items
/// produced meanwhile, by another thread or re-entrantly by the downstream,
/// are queued and delivered by the emitter in the order the state changed.
/// So downstream delivery is never concurrent, never interleaved, and never
/// happens under a lock.
struct OrderedEmission<Item> {
    private var pending = RingQueue<Item>()
    private var isEmitting = false

    /// Returns `item` when the caller becomes the emitter and must deliver
    /// it; otherwise queues it for the current emitter and returns `nil`.
    mutating func begin(_ item: Item) -> Item? {
        if isEmitting {
            pending.enqueue(item)
            return nil
        }
        isEmitting = true
        return item
    }

    /// The next queued item, or `nil` (and the emitter role is released).
    mutating func next() -> Item? {
        if let item = pending.dequeue() {
            return item
        }
        isEmitting = false
        return nil
    }
}

extension Sink {
    /// The emitter loop for sinks that serialise with `OrderedEmission`:
    /// delivers `first` (if the caller became the emitter), then every event
    /// `next` hands out. A terminal event disposes the sink; later events are
    /// dropped by `forwardOn`, but the loop still runs to release the role.
    ///
    /// `next` must take the sink's lock and call `OrderedEmission.next()`.
    @inline(__always)
    final func drainOrdered(_ first: Event<Observer.Element>?, next: () -> Event<Observer.Element>?) {
        guard var event = first else { return }
        while true {
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
            guard let following = next() else { return }
            event = following
        }
    }
}
