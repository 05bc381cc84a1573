import Synchronization

/// Something that can remove a subscriber registered under a key.
protocol SubjectUnsubscribing: AnyObject {
    func unsubscribe(_ key: BagKey)
}

/// One subscriber of a subject or relay, as the subject's bag holds it: the
/// observer's handler, a disposed flag checked before every delivery (so
/// nothing arrives after dispose, even from a delivery already under way),
/// and the way back to its subject.
///
/// The subscriber gets `disposable`, which refers to this entry and to the
/// subject only weakly: an observer closure that captures its own disposable
/// forms no cycle once the entry has left the bag, and a subscription the
/// subscriber forgot to dispose does not keep a dropped subject alive.
final class SubjectSubscription<Element> {
    private let observer: any ObserverType<Element>
    private let disposed = Atomic<Bool>(false)
    private weak var owner: SubjectUnsubscribing?
    var key = BagKey(rawValue: 0)

    init<Observer: ObserverType>(_ observer: Observer, owner: SubjectUnsubscribing) where Observer.Element == Element {
        self.observer = observer
        self.owner = owner
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// The disposable handed to the subscriber.
    var disposable: Disposable {
        SubjectSubscriptionDisposable(self)
    }

    /// Delivers `event` unless this subscription has been disposed.
    @inline(__always)
    func deliver(_ event: Event<Element>) {
        if disposed.load(ordering: .acquiring) { return }
        observer.on(event)
    }

    /// Delivers `element` unless this subscription has been disposed; the
    /// element-only fast path of `deliver(.next(element))`.
    @inline(__always)
    func deliverNext(_ element: Element) {
        if disposed.load(ordering: .acquiring) { return }
        observer.onNext(element)
    }

    /// Stops deliveries and removes the entry from its subject.
    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        owner?.unsubscribe(key)
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// What a subscriber of a subject holds: disposing it disposes the entry, if
/// the entry still exists.
///
/// `@unchecked Sendable`: `subscription` is a weak reference, set once in
/// `init`; the runtime makes loading it from any thread safe.
private final class SubjectSubscriptionDisposable<Element>: Disposable, @unchecked Sendable {
    private weak var subscription: SubjectSubscription<Element>?

    init(_ subscription: SubjectSubscription<Element>) {
        self.subscription = subscription
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func dispose() {
        subscription?.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// Delivers `event` to each of `subscriptions`, in subscription order.
@inline(__always)
func dispatch<Element>(_ subscriptions: [SubjectSubscription<Element>], _ event: Event<Element>) {
    for subscription in subscriptions {
        subscription.deliver(event)
    }
}

/// What a subject decided, under its lock, for a new subscriber.
enum SubscribeOutcome<Element> {
    /// The subscriber was registered.
    case subscribed(SubjectSubscription<Element>)
    /// The subject has stopped (or was disposed): the subscriber gets this event at once.
    case stopped(Event<Element>)

    /// Completes the subscription outside the subject's lock.
    func finish<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        switch self {
        case .subscribed(let subscription):
            return subscription.disposable
        case .stopped(let event):
            observer.on(event)
            return Disposables.create()
        }
    }
}

/// One unit of work for a subject that holds state (a current value, a replay
/// buffer): an event for the subscribers registered when it was sent, or the
/// replay a new subscriber is owed.
///
/// It is the item of the `SerialDelivery` of the subjects that apply every
/// event to their state at once, under their lock (so `value` reads the
/// latest send, even one made from inside a subscriber), and queue the
/// delivery together with its receivers. (`PublishSubject` instead queues
/// bare events and picks their receivers when it dequeues them.) A new
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
                receiver.deliverNext(element)
            }
        }
    }
}
