/// One unit of work for a subject that holds state (a current value, a replay
/// buffer): an event for the subscribers registered when it was sent, or the
/// replay a new subscriber is owed.
///
/// Unlike `EmissionQueue`, which applies an event to the subject when it is
/// dequeued, these subjects apply every event to their state at once, under
/// their lock (so `value` reads the latest send, even one made from inside a
/// subscriber), and queue the delivery together with its receivers. A new
/// subscriber's replay is queued in the same line, so it always arrives before
/// the events sent after it subscribed, whichever thread sends them.
enum SubjectDelivery<Element> {
    /// `event` for each of `receivers`, in subscription order.
    case broadcast(Event<Element>, [SubjectSubscription<Element>])
    /// `elements` as `.next` events for one new subscriber.
    case replay([Element], SubjectSubscription<Element>)

    /// Delivers to the receivers that have not been disposed meanwhile.
    @inline(__always)
    func run() {
        switch self {
        case .broadcast(let event, let receivers):
            dispatch(receivers, event)
        case .replay(let elements, let receiver):
            for element in elements {
                receiver.deliver(.next(element))
            }
        }
    }
}

/// Serialises the deliveries of a subject (or of a `share` connection); lives
/// inside the owner's locked state.
///
/// The owner, under its lock, calls `begin`: the caller either becomes the
/// emitter (and runs the delivery after unlocking) or leaves the delivery
/// for the thread already emitting. The emitter then takes `next()` under the
/// lock until it returns `nil`. A delivery therefore never overlaps another,
/// whether the second one comes from another thread or re-entrantly from a
/// subscriber.
struct SubjectDeliveryQueue<Element> {
    private var pending = RingQueue<SubjectDelivery<Element>>()
    private(set) var isEmitting = false

    /// Returns `delivery` when the caller becomes the emitter and must run it
    /// now; otherwise queues it for the current emitter and returns `nil`.
    mutating func begin(_ delivery: SubjectDelivery<Element>) -> SubjectDelivery<Element>? {
        if isEmitting {
            pending.enqueue(delivery)
            return nil
        }
        isEmitting = true
        return delivery
    }

    /// The next queued delivery, or `nil` (and the emitter role released).
    mutating func next() -> SubjectDelivery<Element>? {
        if let delivery = pending.dequeue() {
            return delivery
        }
        isEmitting = false
        return nil
    }

    /// Drops the queued deliveries (the one being run is not affected).
    mutating func removePending() {
        pending.removeAll()
    }
}

/// Runs `first` (when the caller became the emitter) and then every delivery
/// `next` hands out; `next` takes the owner's lock and calls
/// `SubjectDeliveryQueue.next()`.
@inline(__always)
func runDeliveries<Element>(_ first: SubjectDelivery<Element>?, next: () -> SubjectDelivery<Element>?) {
    var current = first
    while let delivery = current {
        delivery.run()
        current = next()
    }
}
