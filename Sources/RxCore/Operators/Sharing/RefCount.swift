import Synchronization

extension ConnectableObservableType {
    /// Connects the connectable sequence while it has subscribers.
    ///
    /// The first subscriber connects; when the last one disposes, the
    /// connection is disposed. When the source terminates, the terminal event
    /// reaches every subscriber and the connection ends; the next subscriber
    /// (even one that subscribes from inside the terminal event's handler)
    /// connects again. Connecting and disconnecting run one at a time, in the
    /// order they were requested, outside any lock; one requested while
    /// another runs (from another thread, or from inside the connect's own
    /// synchronous emissions) runs right after it, on the thread already
    /// running them.
    ///
    ///     source:       --1--2--3--4--
    ///     subscriber A:   a-----x          (a: subscribe, x: dispose)
    ///     A receives:     --2--
    ///     source subscription: (a, x)
    public func refCount() -> Observable<Element> {
        RefCount(source: self)
    }
}

private final class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Source.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCount<Source>
    /// The connection this subscriber belongs to; guarded by the parent's lock.
    private var connectionIdSnapshot = UInt64.max

    init(parent: RefCount<Source>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        let shouldConnect = parent.state.withLock { state -> Bool? in
            connectionIdSnapshot = state.connectionId
            if isDisposed { return nil }
            state.count += 1
            return state.count == 1
        }
        guard let shouldConnect else { return subscription }
        if shouldConnect {
            parent.perform(.connect)
        }
        return Disposables.create { [self] in
            subscription.dispose()
            let shouldDisconnect = parent.state.withLock { state -> Bool in
                if state.connectionId != connectionIdSnapshot { return false }
                precondition(state.count > 0, "refCount: more subscribers left than subscribed")
                state.count -= 1
                return state.count == 0
            }
            if shouldDisconnect {
                parent.perform(.disconnect)
            }
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error, .completed:
            let shouldDisconnect = parent.state.withLock { state -> Bool in
                if state.connectionId != connectionIdSnapshot { return false }
                state.count = 0
                state.connectionId &+= 1
                return true
            }
            if shouldDisconnect {
                parent.perform(.disconnect)
            }
            forwardOn(event)
            dispose()
        }
    }
}

private final class RefCount<Source: ConnectableObservableType>: Producer<Source.Element> {
    enum Operation {
        case connect
        case disconnect
    }

    struct State {
        /// Subscribers of the current connection.
        var count = 0
        /// Changes when the source terminates, so subscribers of an ended
        /// connection leave without touching the new one.
        var connectionId: UInt64 = 0
        /// What the last `connect()` returned, until it is disconnected.
        var connection: Disposable?
        var pending = RingQueue<Operation>()
        var isPerforming = false

        mutating func nextOperation() -> Operation? {
            if let operation = pending.dequeue() {
                return operation
            }
            isPerforming = false
            return nil
        }
    }

    let source: Source
    let state = Mutex(State())

    init(source: Source) {
        self.source = source
    }

    /// Runs `operation` now, and then those requested meanwhile, unless another
    /// caller is already running operations; then it is queued for that caller.
    func perform(_ operation: Operation) {
        let runNow = state.withLock { state -> Bool in
            if state.isPerforming {
                state.pending.enqueue(operation)
                return false
            }
            state.isPerforming = true
            return true
        }
        guard runNow else { return }
        var current: Operation? = operation
        while let operation = current {
            switch operation {
            case .connect:
                let connection = source.connect()
                current = state.withLock { state in
                    state.connection = connection
                    return state.nextOperation()
                }
            case .disconnect:
                let connection = state.withLock { state -> Disposable? in
                    defer { state.connection = nil }
                    return state.connection
                }
                connection?.dispose()
                current = state.withLock { $0.nextOperation() }
            }
        }
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Source.Element {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
