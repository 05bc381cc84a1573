import Synchronization

extension ObservableType {
    /// Fails with `RxError.timeout` if the first element does not arrive
    /// within `dueTime` of the subscription, or the next element within
    /// `dueTime` of the previous one.
    ///
    /// Each element restarts the timer on `scheduler`. A terminal event of the
    /// source in time is forwarded. When the timer wins, the source is
    /// disposed and the error is emitted. Disposing cancels the timer and the
    /// source subscription.
    ///
    ///     source:            -1-2------3-|
    ///     timeout(4 ticks):  -1-2---#
    ///
    /// - Parameters:
    ///   - dueTime: the longest allowed gap between subscription and the first
    ///     element, and between two elements.
    ///   - scheduler: the scheduler that runs the timers.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if the first element does not arrive within
    /// `dueTime` of the subscription, or the next element within `dueTime` of
    /// the previous one.
    ///
    /// Each element restarts the timer on `scheduler`. When the timer wins,
    /// the source is disposed and `other` is subscribed; its events are
    /// forwarded from then on. Disposing disposes whichever subscription is
    /// current and the timer.
    ///
    ///     source:                      -1-2------3-|
    ///     other:                       -a-b-|
    ///     timeout(4 ticks, other:):    -1-2----a-b-|
    ///
    /// - Parameters:
    ///   - dueTime: the longest allowed gap between subscription and the first
    ///     element, and between two elements.
    ///   - other: the sequence to continue with after a timeout.
    ///   - scheduler: the scheduler that runs the timers.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element> where Element == Source.Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private final class TimeoutSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private struct State {
        var id = 0
        var switched = false
    }

    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let timer = SerialDisposable()
    private let subscription = SerialDisposable()

    init(dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        createTimeoutTimer()
        original.setDisposable(source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        // The source wins against a pending timer by moving the id on.
        let wins = state.withLock { state -> Bool in
            if state.switched { return false }
            state.id &+= 1
            return true
        }
        guard wins else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        } else {
            createTimeoutTimer()
        }
    }

    private func createTimeoutTimer() {
        if timer.isDisposed { return }
        let id = state.withLock { $0.id }
        timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { id in
            self.timerFired(id)
            return Disposables.create()
        }
    }

    private func timerFired(_ id: Int) {
        let wins = state.withLock { state -> Bool in
            if state.switched || state.id != id { return false }
            state.switched = true
            return true
        }
        if wins {
            subscription.disposable = other.subscribe(forwarder())
        }
    }
}

private final class Timeout<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TimeoutSink(dueTime: dueTime, other: other, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
