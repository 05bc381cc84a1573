import Synchronization

/// How long the subject behind `share(replay:scope:)` lives.
public enum SubjectLifetimeScope {
    /// The subject lives as long as one connection to the source: when the
    /// source terminates or every subscriber has left, it is dropped, and the
    /// next subscriber connects again, with a fresh subject and an empty
    /// replay buffer. This is the usual choice.
    case whileConnected

    /// One subject for the operator's whole life: after the source has
    /// terminated, a late subscriber receives the replay buffer and the
    /// terminal event instead of reconnecting. Elements kept in the buffer
    /// outlive the subscriptions.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers,
    /// replaying the last `replay` elements to each new subscriber.
    ///
    /// The first subscriber subscribes to the source; when the last one
    /// disposes, the source subscription is disposed. With `.whileConnected`
    /// (the default), a source that terminated is subscribed again by the next
    /// subscriber, even one that subscribes from inside the terminal event's
    /// handler; with `.forever`, later subscribers receive the replay buffer
    /// and the terminal event of the one subject.
    ///
    /// `share(replay: 0 or 1, scope: .whileConnected)` run on a dedicated
    /// implementation; the other forms are `multicast` + `refCount()`.
    ///
    ///     source:        --1--2--3--4--|
    ///     A subscribes:  a
    ///     A receives:    --1--2--3--4--|
    ///     B subscribes:       b             (share(replay: 1))
    ///     B receives:         1-2--3--4--|
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        switch scope {
        case .forever:
            switch replay {
            case 0:
                return multicast(PublishSubject<Element>()).refCount()
            default:
                return multicast(ReplaySubject<Element>.create(bufferSize: replay)).refCount()
            }
        case .whileConnected:
            switch replay {
            case 0:
                return ShareWhileConnected(source: asObservable(), replayLatest: false)
            case 1:
                return ShareWhileConnected(source: asObservable(), replayLatest: true)
            default:
                return multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: replay) }).refCount()
            }
        }
    }
}

/// One connection of `ShareWhileConnected`: the source's observer and the
/// subscribers' subject. Its mutable fields are guarded by the parent's lock.
private final class ShareConnection<Element>: ObserverType, SubjectUnsubscribing {
    private let parent: ShareWhileConnected<Element>
    private let subscription = SingleAssignmentDisposable()

    // Guarded by `parent.lock`.
    var subscriptions = Bag<SubjectSubscription<Element>>()
    var element: Element?
    var deliveries = SerialDelivery<SubjectDelivery<Element>>()
    private var isDisposed = false

    init(parent: ShareWhileConnected<Element>) {
        self.parent = parent
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Subscribes to the source; called once, by the first subscriber, outside the lock.
    func connect() {
        subscription.setDisposable(parent.source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        let first = parent.lock.locked { _ -> SubjectDelivery<Element>? in
            if isDisposed { return nil }
            let receivers = subscriptions.elements
            switch event {
            case .next(let element):
                if parent.replayLatest {
                    self.element = element
                }
            case .error, .completed:
                lockedDispose()
            }
            return deliveries.begin(.broadcast(event, receivers))
        }
        drainSerially(first, next: nextDelivery) { $0.run() }
    }

    func nextDelivery() -> SubjectDelivery<Element>? {
        parent.lock.locked { _ in deliveries.next() }
    }

    func unsubscribe(_ key: BagKey) {
        let disconnect = parent.lock.locked { _ -> Bool in
            guard subscriptions.removeKey(key) != nil else { return false }
            if subscriptions.isEmpty {
                lockedDispose()
                return true
            }
            return false
        }
        if disconnect {
            subscription.dispose()
        }
    }

    /// Detaches from the parent, so the next subscriber connects afresh. Call
    /// with the parent's lock held.
    private func lockedDispose() {
        isDisposed = true
        subscriptions.removeAll()
        element = nil
        parent.lockedDetach(self)
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// `share(replay: 0 or 1, scope: .whileConnected)`: one source subscription
/// per connection, no intermediate subject or refCount.
private final class ShareWhileConnected<Element>: Observable<Element> {
    let source: Observable<Element>
    let replayLatest: Bool
    /// Guards `current` and the fields of the connections.
    let lock = Mutex(())
    /// The current connection; read and written only with `lock` held.
    private var current: ShareConnection<Element>?

    init(source: Observable<Element>, replayLatest: Bool) {
        self.source = source
        self.replayLatest = replayLatest
        super.init()
    }

    /// Forgets `connection` if it is the current one. Call with `lock` held.
    func lockedDetach(_ connection: ShareConnection<Element>) {
        if current === connection {
            current = nil
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let (connection, subscription, isNew, first) = lock.locked { _ -> (ShareConnection<Element>, SubjectSubscription<Element>, Bool, SubjectDelivery<Element>?) in
            let isNew = current == nil
            let connection = current ?? ShareConnection(parent: self)
            current = connection
            let subscription = SubjectSubscription(observer, owner: connection)
            subscription.key = connection.subscriptions.insert(subscription)
            var first: SubjectDelivery<Element>?
            if let element = connection.element {
                first = connection.deliveries.begin(.replay([element], subscription))
            }
            return (connection, subscription, isNew, first)
        }
        drainSerially(first, next: connection.nextDelivery) { $0.run() }
        if isNew {
            connection.connect()
        }
        return subscription.disposable
    }
}
