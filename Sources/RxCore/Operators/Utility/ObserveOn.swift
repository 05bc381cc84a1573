import Synchronization

extension ObservableType {
    /// Delivers every event on `scheduler`, in the order the source sent them.
    ///
    /// Events are queued and delivered one at a time by work scheduled on
    /// `scheduler`, so delivery is never concurrent even on a concurrent
    /// scheduler. On a `SerialDispatchQueueScheduler` each event is one
    /// `async` on its queue. After disposal nothing more is delivered and
    /// pending scheduled work is cancelled; the source subscription itself is
    /// disposed on the disposing thread (use `subscribe(on:)` to move it).
    ///
    ///     source:         -1-2-3-|        (thread A)
    ///     observe(on: s): -1-2-3-|        (each event a moment later, on s)
    ///
    /// - Parameter scheduler: the scheduler that delivers the events.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialQueue(source: asObservable(), scheduler: serial)
        }
        // RxSwift's MainScheduler is a serial dispatch queue scheduler and
        // counted as one.
        return ObserveOn(source: asObservable(), scheduler: scheduler, countsAsSerialQueue: scheduler is MainScheduler)
    }
}

// MARK: - Any scheduler

private final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var stopped = false
        var running = false
        var queue = RingQueue<Event<Element>>()
    }

    private let scheduler: ImmediateSchedulerType
    private let state = Mutex(State())
    private let scheduled = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let start = state.withLock { state -> Bool in
            if state.stopped { return false }
            if event.isStopEvent {
                state.stopped = true
            }
            state.queue.enqueue(event)
            if state.running { return false }
            state.running = true
            return true
        }
        if start {
            scheduled.disposable = scheduler.scheduleRecursive(()) { _, recurse in
                self.deliverNext(recurse)
            }
        }
    }

    /// Delivers one queued event, then schedules the next step if more are queued.
    private func deliverNext(_ recurse: (()) -> Void) {
        let event = state.withLock { state -> Event<Element>? in
            if let event = state.queue.dequeue() { return event }
            state.running = false
            return nil
        }
        guard let event, cancel?.isDisposed != true else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
        let more = state.withLock { state -> Bool in
            if state.queue.isEmpty {
                state.running = false
                return false
            }
            return true
        }
        if more {
            recurse(())
        }
    }

    override func dispose() {
        super.dispose()
        scheduled.dispose()
    }
}

private final class ObserveOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType
    #if TRACE_RESOURCES
    /// Counted in `numberOfSerialDispatchQueueObservables` (MainScheduler).
    private let countsAsSerialQueue: Bool
    #endif

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, countsAsSerialQueue: Bool) {
        self.source = source
        self.scheduler = scheduler
        #if TRACE_RESOURCES
        self.countsAsSerialQueue = countsAsSerialQueue
        if countsAsSerialQueue {
            Resources.serialQueueObservableCreated()
        }
        #endif
    }

    #if TRACE_RESOURCES
    deinit {
        if countsAsSerialQueue {
            Resources.serialQueueObservableFreed()
        }
    }
    #endif

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: - Serial dispatch queue

/// The serial queue keeps the order, so each event is simply one `async`.
private final class ObserveOnSerialQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler
    private let stopped = Atomic<Bool>(false)

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        } else if stopped.load(ordering: .acquiring) {
            return
        }
        // observe(on:) delivers the event on the queue: its contract.
        let event = UncheckedSendable(event)
        scheduler.enqueue {
            if self.cancel?.isDisposed == true { return }
            self.forwardOn(event.value)
            if event.value.isStopEvent {
                self.dispose()
            }
        }
    }
}

private final class ObserveOnSerialQueue<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: SerialDispatchQueueScheduler

    init(source: Observable<Element>, scheduler: SerialDispatchQueueScheduler) {
        self.source = source
        self.scheduler = scheduler
        #if TRACE_RESOURCES
        Resources.serialQueueObservableCreated()
        #endif
    }

    #if TRACE_RESOURCES
    deinit {
        Resources.serialQueueObservableFreed()
    }
    #endif

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSerialQueueSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
