import Synchronization

extension ObservableType {
    /// Drops the source's elements for `duration` from the subscription, then
    /// emits them.
    ///
    /// The timer starts on `scheduler` before the source is subscribed.
    /// Terminal events are forwarded whenever they arrive. Disposing cancels
    /// the timer and the source subscription.
    ///
    ///     source:             -1-2-3-4-5-|
    ///     skip(for: 6 ticks): -------4-5-|
    ///
    /// - Parameters:
    ///   - duration: how long to drop elements.
    ///   - scheduler: the scheduler that runs the timer.
    public func skip(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipFor(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// RxSwift 6's spelling of `skip(for:scheduler:)`: drops the elements
    /// of the first `duration` on `scheduler`.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        skip(for: duration, scheduler: scheduler)
    }
}

private final class SkipForSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let open = Atomic<Bool>(false)

    func run(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            self.open.store(true, ordering: .releasing)
            return Disposables.create()
        }
        let subscription = source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if open.load(ordering: .acquiring) {
                forwardOn(event)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class SkipFor<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipForSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, duration: duration, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
