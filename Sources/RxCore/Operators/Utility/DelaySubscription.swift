extension ObservableType {
    /// Subscribes to the source `dueTime` after being subscribed, on
    /// `scheduler`.
    ///
    /// Events pass through unchanged from then on. Disposing before the
    /// delay has passed cancels the subscription before it happens; later,
    /// it disposes the source subscription.
    ///
    ///     source (cold):              -1-2-|
    ///     delaySubscription(3 ticks): ----1-2-|
    ///
    /// - Parameters:
    ///   - dueTime: how long to wait before subscribing.
    ///   - scheduler: the scheduler that runs the delayed subscription.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySubscription<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        // The source is subscribed on the scheduler, as RxSwift's contract says.
        let source = UncheckedSendable(self.source)
        let subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
            source.value.subscribe(sink)
        }
        return (sink: sink, subscription: subscription)
    }
}
