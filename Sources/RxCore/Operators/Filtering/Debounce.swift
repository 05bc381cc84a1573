import Synchronization

extension ObservableType {
    /// Emits an element only after `dueTime` has passed without another
    /// element arriving.
    ///
    /// Each element restarts a timer on `scheduler`; when the timer fires, the
    /// last element is emitted. On completion a pending element is emitted at
    /// once, followed by `.completed`. An error is forwarded at once and
    /// drops the pending element. Disposing cancels the timer and the upstream
    /// subscription.
    ///
    ///     source:            -1-2-------3|
    ///     debounce(3 ticks): ------2-----(3|)    (3 is flushed by the completion)
    ///
    /// - Parameters:
    ///   - dueTime: how long the source must be quiet before an element is emitted.
    ///   - scheduler: the scheduler that runs the timers.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DebounceSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var id: UInt64 = 0
        var value: Element?
        var delivery = SerialDelivery<Event<Element>>()
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.dueTime = dueTime
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
            let id = state.locked { state -> UInt64 in
                state.id &+= 1
                state.value = element
                return state.id
            }
            timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { id in
                self.propagate(id)
                return Disposables.create()
            }
        case .error:
            let first = state.locked { state -> Event<Element>? in
                state.value = nil
                return state.delivery.accept(event)
            }
            forwardSerially(accepted: first, in: state)
        case .completed:
            let first = state.withLock { state -> Event<Element>? in
                let value = state.value
                state.value = nil
                return state.delivery.acceptLast(value)
            }
            forwardSerially(accepted: first, in: state)
        }
    }

    private func propagate(_ id: UInt64) {
        let first = state.withLock { state -> Event<Element>? in
            guard let value = state.value, state.id == id else { return nil }
            state.value = nil
            return state.delivery.accept(.next(value))
        }
        forwardSerially(accepted: first, in: state)
    }
}

private final class Debounce<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
