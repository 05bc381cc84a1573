/// Serialises the downstream delivery of an operator that receives events
/// from several sources (merge, flatMap, switchLatest, withLatestFrom...).
///
/// It lives inside the sink's `Mutex`-protected state, so the decision to
/// emit (an element, or completion once the last inner is done) is taken in
/// the same critical section as the state change that caused it. The thread
/// that finds nobody delivering becomes the emitter: it delivers outside the
/// lock and then drains what other threads, or re-entrant calls from the
/// downstream, queued meanwhile. Downstream `on` is therefore never called
/// concurrently nor re-entrantly. The first terminal event closes the
/// emitter: later events are dropped.
struct SerialEmitter<Element> {
    private var pending = RingQueue<Event<Element>>()
    private var isEmitting = false
    /// `true` once a terminal event has been accepted.
    private(set) var isStopped = false

    /// Accepts `event`. Returns `true` when the caller became the emitter
    /// and must deliver `event` now (then drain with `next()`); `false` when
    /// the event was queued for the current emitter, or dropped after a
    /// terminal event.
    mutating func accept(_ event: Event<Element>) -> Bool {
        if isStopped { return false }
        if event.isStopEvent {
            isStopped = true
        }
        if isEmitting {
            pending.enqueue(event)
            return false
        }
        isEmitting = true
        return true
    }

    /// The next queued event, or `nil`, in which case the emitter role is released.
    mutating func next() -> Event<Element>? {
        if let event = pending.dequeue() {
            return event
        }
        isEmitting = false
        return nil
    }
}

extension Sink {
    /// Delivers `first`, then each event `next` returns until it returns
    /// `nil`. Call it only after `SerialEmitter.accept` returned `true`; `next`
    /// must call `SerialEmitter.next()` under the sink's lock. After a
    /// terminal event the sink is disposed and the loop ends (the emitter is
    /// stopped, so nothing can be queued behind a terminal event).
    final func emitSerially(_ first: Event<Observer.Element>, next: () -> Event<Observer.Element>?) {
        var event = first
        while true {
            forwardOn(event)
            if event.isStopEvent {
                dispose()
                return
            }
            guard let following = next() else { return }
            event = following
        }
    }
}
