extension ObservableType where Element: RxAbstractInteger {
    /// An observable that emits 0, 1, 2, ... every `period` on `scheduler`,
    /// starting one `period` after subscription, and never completes.
    ///
    /// The elements come from the scheduler's `schedulePeriodic`, whose runs
    /// never overlap. Disposing stops the periodic work. The count wraps
    /// around at `Element.max`.
    ///
    ///     interval(100):   ---0---1---2---...
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// An observable that emits 0 after `dueTime` on `scheduler`.
    ///
    /// Without a `period` it then completes. With a `period` it goes on
    /// emitting 1, 2, ... every `period` (a periodic `schedulePeriodic` run)
    /// and never completes. Disposing cancels what has not run yet.
    ///
    ///     timer(300):              ---0|
    ///     timer(300, period: 100): ---0-1-2-...
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

private final class TimerPeriodicSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable where Observer.Element: RxAbstractInteger {
    func run(dueTime: RxTimeInterval, period: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        scheduler.schedulePeriodic(0 as Observer.Element, startAfter: dueTime, period: period) { count in
            self.forwardNext(count)
            return count &+ 1
        }
    }
}

private final class TimerOneOffSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable where Observer.Element: RxAbstractInteger {
    func run(dueTime: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            // Without an `Event`: building one looks its metadata up.
            self.forwardNext(0)
            self.forwardCompleted()
            return Disposables.create()
        }
    }
}

private final class Timer<Element: RxAbstractInteger>: Producer<Element> {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        if let period {
            let sink = TimerPeriodicSink(observer: observer, cancel: cancel)
            let subscription = sink.run(dueTime: dueTime, period: period, scheduler: scheduler)
            return (sink: sink, subscription: subscription)
        }
        let sink = TimerOneOffSink(observer: observer, cancel: cancel)
        let subscription = sink.run(dueTime: dueTime, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
