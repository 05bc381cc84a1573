import Synchronization

extension ObservableType {
    /// Emits the source's elements for `duration` from the subscription, then
    /// completes.
    ///
    /// The timer starts on `scheduler` before the source is subscribed. When
    /// it fires, `.completed` is emitted and the source is disposed. A
    /// terminal event of the source before then is forwarded. Disposing
    /// cancels the timer and the source subscription.
    ///
    ///     source:                 -1-2-3-4-5-|
    ///     take(for: 6 ticks):     -1-2-3|
    ///
    /// - Parameters:
    ///   - duration: how long to take elements.
    ///   - scheduler: the scheduler that runs the timer.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeFor(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class TakeForSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: SerialDeliveryState, @unchecked Sendable {
        var delivery = SerialDelivery<Event<Element>>()
    }

    private let state = Mutex(State())

    func run(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            self.tick()
            return Disposables.create()
        }
        let subscription = source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        forwardSerially(event, in: state)
    }

    private func tick() {
        forwardSerially(.completed, in: state)
    }
}

private final class TakeFor<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeForSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, duration: duration, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
