import Synchronization

extension ObservableType {
    /// Emits each element and the completion `dueTime` later, on `scheduler`.
    ///
    /// Elements keep their spacing: each is emitted `dueTime` after it
    /// arrived. An error is forwarded at once, dropping the elements still
    /// waiting. The source subscription ends when the source terminates.
    /// Disposing cancels the pending emissions and the source subscription.
    ///
    ///     source:            -1-2--3-|
    ///     delay(3 ticks):    ----1-2--3-|
    ///
    /// - Parameters:
    ///   - dueTime: how long to shift each event.
    ///   - scheduler: the scheduler that runs the delay timers.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        /// A drain chain is scheduled or running.
        var active = false
        /// The drain loop is delivering.
        var running = false
        var errorEvent: Event<Element>?
        var queue = RingQueue<(time: RxTime, event: Event<Element>)>()
    }

    /// What one step of the drain loop does, decided under the lock.
    private enum Step {
        case fail(Event<Element>)
        case forward(Event<Element>)
        case reschedule(RxTime)
        case stop
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let sourceSubscription = SingleAssignmentDisposable()
    private let drainChain = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, drainChain)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            sourceSubscription.dispose()
        }
        switch event {
        case .error:
            let sendNow = state.withLock { state -> Bool in
                state.queue.removeAll()
                state.errorEvent = event
                return !state.running
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let now = scheduler.now
            let startChain = state.withLock { state -> Bool in
                state.queue.enqueue((now, event))
                if state.active { return false }
                state.active = true
                return true
            }
            if startChain {
                drainChain.disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { _, recurse in
                    self.drainQueue(recurse)
                }
            }
        }
    }

    /// One run of the drain chain: forwards the oldest queued event, then
    /// reschedules itself for the next one, keeping its original spacing.
    /// An error that arrived meanwhile is forwarded instead.
    private func drainQueue(_ recurse: AnyRecursiveScheduler<Void>) {
        let failed = state.withLock { state -> Bool in
            if state.errorEvent != nil { return true }
            state.running = true
            return false
        }
        if failed { return }

        var ranAtLeastOnce = false
        while true {
            let step = state.withLock { state -> Step in
                if let errorEvent = state.errorEvent {
                    return .fail(errorEvent)
                }
                if !ranAtLeastOnce, let queued = state.queue.dequeue() {
                    return .forward(queued.event)
                }
                state.running = false
                if ranAtLeastOnce, let next = state.queue.first {
                    return .reschedule(next.time)
                }
                state.active = false
                return .stop
            }
            switch step {
            case .fail(let errorEvent):
                forwardOn(errorEvent)
                dispose()
                return
            case .forward(let event):
                ranAtLeastOnce = true
                forwardOn(event)
                if event.isCompleted {
                    dispose()
                    return
                }
            case .reschedule(let eventTime):
                let elapsed = scheduler.now.timeIntervalSince(eventTime).nanoseconds
                recurse.schedule((), dueTime: .nanoseconds(Int(dueTime.nanoseconds &- elapsed)))
                return
            case .stop:
                return
            }
        }
    }
}

private final class Delay<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
