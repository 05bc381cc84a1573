import Synchronization

extension ObservableType {
    /// Collects elements into arrays, emitting an array every `timeSpan` or
    /// as soon as it holds `count` elements, whichever comes first.
    ///
    /// A full buffer is emitted at once and restarts the timer. When the timer
    /// fires, the current buffer is emitted even if it is empty. On completion
    /// the current buffer (possibly empty) is emitted, then `.completed`. An
    /// error is forwarded at once and drops the buffer. Disposing cancels the
    /// timer and the source subscription.
    ///
    ///     source:  -1-2-3-4-----5|
    ///     buffer(timeSpan: 6 ticks, count: 3):
    ///              [1, 2, 3] at 5 (full), [4] at 11 (timer), [5] at 14, then completed
    ///
    /// - Parameters:
    ///   - timeSpan: the longest time a buffer stays open.
    ///   - count: the most elements a buffer holds.
    ///   - scheduler: the scheduler that runs the timers.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        BufferTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class BufferTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [Element] {
    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, WindowTimerState, @unchecked Sendable {
        var buffer: [Element] = []
        var windowTimer = WindowTimer()
        var delivery = SerialDelivery<Event<[Element]>>()

        /// Emits the current buffer and opens the next window.
        mutating func startNewWindowAndSendCurrentOne() -> (first: Event<[Element]>?, windowID: Int) {
            windowTimer.windowID &+= 1
            let full = buffer
            buffer = []
            return (delivery.accept(.next(full)), windowTimer.windowID)
        }
    }

    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let state = Mutex(State())

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        createTimer(0)
        let stopTimer = Disposables.create { self.state.stopWindowTimer() }
        return Disposables.create(stopTimer, source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let outcome = state.withLock { state -> (first: Event<[Element]>?, windowID: Int)? in
                state.buffer.append(element)
                guard state.buffer.count == count else { return nil }
                return state.startNewWindowAndSendCurrentOne()
            }
            if let outcome {
                forwardSerially(accepted: outcome.first, in: state)
                createTimer(outcome.windowID)
            }
        case .error(let error):
            let first = state.withLock { state -> Event<[Element]>? in
                state.buffer = []
                return state.delivery.accept(.error(error))
            }
            forwardSerially(accepted: first, in: state)
        case .completed:
            let first = state.withLock { state -> Event<[Element]>? in
                let last = state.buffer
                state.buffer = []
                return state.delivery.acceptLast(last)
            }
            forwardSerially(accepted: first, in: state)
        }
    }

    /// Schedules the timer of window `windowID` (see `startWindowTimer`).
    private func createTimer(_ windowID: Int) {
        state.startWindowTimer(windowID) {
            scheduler.scheduleRelative(windowID, dueTime: timeSpan) { windowID in
                self.timerFired(windowID)
                return Disposables.create()
            }
        }
    }

    private func timerFired(_ windowID: Int) {
        let outcome = state.withLock { state -> (first: Event<[Element]>?, windowID: Int)? in
            guard state.windowTimer.windowID == windowID else { return nil }
            return state.startNewWindowAndSendCurrentOne()
        }
        if let outcome {
            forwardSerially(accepted: outcome.first, in: state)
            createTimer(outcome.windowID)
        }
    }
}

private final class BufferTimeCount<Element>: Producer<[Element]> {
    private let source: Observable<Element>
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == [Element] {
        let sink = BufferTimeCountSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
