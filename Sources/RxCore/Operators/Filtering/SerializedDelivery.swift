/// The downstream side of a sink that receives from two sources (a source and
/// a trigger, as in `take(until:)` and `skip(until:)`).
///
/// It lives inside the sink's `Mutex`-protected state. Events accepted while
/// another thread (or an outer call on the same thread) is delivering are
/// queued and delivered by that emitter, in order, so the downstream observer
/// is never called concurrently or re-entrantly. After a terminal event has
/// been accepted, or after `stop()`, everything is refused.
struct SerializedDelivery<Element> {
    private var queue = EmissionQueue<Element>()
    /// `true` once a terminal event was accepted or `stop()` was called.
    private(set) var isStopped = false

    /// Accepts `event` for delivery. Returns `true` when the caller has become
    /// the emitter and must deliver `event` now (outside the lock), with
    /// `Sink.deliverSerialized(_:next:)`.
    mutating func accept(_ event: Event<Element>) -> Bool {
        if isStopped { return false }
        if event.isStopEvent { isStopped = true }
        return queue.begin(event)
    }

    /// Refuses every later event without delivering a terminal one.
    mutating func stop() {
        isStopped = true
    }

    /// The next queued event, or `nil` (and the emitter role is released).
    mutating func next() -> Event<Element>? {
        queue.next()
    }
}

extension Sink {
    /// Delivers `first` downstream, then each event that `next` returns until
    /// it returns `nil`. `next` must take the sink's lock and call
    /// `SerializedDelivery.next()`. A terminal event disposes the sink right
    /// after it is delivered.
    final func deliverSerialized(_ first: Event<Observer.Element>, next: () -> Event<Observer.Element>?) {
        var current: Event<Observer.Element>? = first
        while let event = current {
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
            current = next()
        }
    }
}
