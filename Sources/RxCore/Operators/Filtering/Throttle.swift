import Synchronization

extension ObservableType {
    /// Emits an element, then ignores elements for `dueTime`; with `latest`,
    /// the last element ignored in that window is emitted when it ends.
    ///
    /// The first element is emitted at once. An element that arrives less
    /// than `dueTime` after the last emission is dropped (`latest: false`) or
    /// kept as the pending element, emitted by a timer `dueTime` after the
    /// last emission (`latest: true`). Completion waits for a pending element
    /// to be emitted; an error is forwarded at once and drops it. Disposing
    /// cancels the timer and the upstream subscription. Times come from
    /// `scheduler.now`.
    ///
    ///     source:                       -1-2--3-----4-|
    ///     throttle(4 ticks):            -1---2---3--4-|
    ///     throttle(4 ticks, latest: false): -1----3-----4-|
    ///
    /// - Parameters:
    ///   - dueTime: the minimum time between two emitted elements.
    ///   - latest: whether to emit the last element received during a window.
    ///   - scheduler: the scheduler whose clock and timers are used.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private final class ThrottleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var lastUnsentElement: Element?
        var lastSentTime: RxTime?
        var completed = false
        var delivery = SerialDelivery<Event<Element>>()

        /// Records `element` as sent at `now` and queues it.
        mutating func sendNow(_ element: Element, now: RxTime) -> Event<Element>? {
            lastUnsentElement = nil
            lastSentTime = now
            return delivery.accept(.next(element))
        }
    }

    private enum NextOutcome {
        case deliver(Event<Element>?)
        case scheduleTimer(RxTimeInterval)
    }

    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = source.subscribe(self)
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            let outcome = state.locked { state -> NextOutcome in
                var remaining: Int64 = 0
                if let lastSentTime = state.lastSentTime {
                    remaining = dueTime.nanoseconds &- now.timeIntervalSince(lastSentTime).nanoseconds
                }
                if remaining <= 0 {
                    return .deliver(state.sendNow(element, now: now))
                }
                if !latest {
                    return .deliver(nil)
                }
                let inFlight = state.lastUnsentElement != nil
                state.lastUnsentElement = element
                return inFlight ? .deliver(nil) : .scheduleTimer(.nanoseconds(Int(remaining)))
            }
            switch outcome {
            case .deliver(let first):
                forwardSerially(accepted: first, in: state)
            case .scheduleTimer(let dueTime):
                timer.disposable = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    self.propagate()
                    return Disposables.create()
                }
            }
        case .error:
            let first = state.locked { state -> Event<Element>? in
                state.lastUnsentElement = nil
                return state.delivery.accept(event)
            }
            forwardSerially(accepted: first, in: state)
        case .completed:
            let first = state.locked { state -> Event<Element>? in
                if state.lastUnsentElement != nil {
                    state.completed = true
                    return nil
                }
                return state.delivery.accept(.completed)
            }
            forwardSerially(accepted: first, in: state)
        }
    }

    private func propagate() {
        let now = scheduler.now
        let first = state.locked { state -> Event<Element>? in
            var first: Event<Element>?
            if let element = state.lastUnsentElement {
                first = state.sendNow(element, now: now)
            }
            if state.completed {
                let completed = state.delivery.accept(.completed)
                first = first ?? completed
            }
            return first
        }
        forwardSerially(accepted: first, in: state)
    }
}

private final class Throttle<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ThrottleSink(dueTime: dueTime, latest: latest, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
