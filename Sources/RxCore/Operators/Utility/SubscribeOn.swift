extension ObservableType {
    /// Subscribes to the source, and disposes that subscription, on
    /// `scheduler`.
    ///
    /// Events are delivered wherever the source sends them (combine with
    /// `observe(on:)` to move delivery). Disposing before the scheduled
    /// subscription has run cancels it; afterwards the source subscription is
    /// disposed by work scheduled on `scheduler`.
    ///
    ///     source:           -1-2-|   (subscribed on s)
    ///     subscribe(on: s): -1-2-|
    ///
    /// - Parameter scheduler: the scheduler that subscribes and disposes.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: self, scheduler: scheduler)
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: ForwardingSink<Observer>, @unchecked Sendable {
    func run<Source: ObservableType>(source: Source, scheduler: ImmediateSchedulerType) -> Disposable where Source.Element == Element {
        let disposeEverything = SerialDisposable()
        let cancelSchedule = SingleAssignmentDisposable()
        disposeEverything.disposable = cancelSchedule
        // The source is subscribed on the scheduler: subscribe(on:)'s contract.
        let source = UncheckedSendable(source)
        let scheduled = scheduler.schedule(()) { _ -> Disposable in
            let subscription = source.value.subscribe(self)
            disposeEverything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        }
        cancelSchedule.setDisposable(scheduled)
        return disposeEverything
    }
}

/// Keeps the source as it is (not wrapped by `asObservable()`), as RxSwift
/// does, so the source sees exactly one subscribe and one dispose.
private final class SubscribeOn<Source: ObservableType>: Producer<Source.Element> {
    typealias Element = Source.Element

    private let source: Source
    private let scheduler: ImmediateSchedulerType

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = SubscribeOnSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
