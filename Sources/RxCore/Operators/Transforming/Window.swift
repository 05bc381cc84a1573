import Synchronization

extension ObservableType {
    /// Splits the source into windows: observables that each receive the
    /// source's elements for at most `timeSpan` and at most `count` elements.
    ///
    /// The first window is emitted on subscription. A window that has
    /// received `count` elements, or has been open for `timeSpan`, completes
    /// and the next one is emitted at once (a window may stay empty). Each
    /// window is a subject: it passes on only the elements that arrive while
    /// it is subscribed. The source's terminal event goes to the current
    /// window and then downstream. Disposing the outer subscription stops
    /// new windows from being delivered; the source subscription and the
    /// timer live on until every window subscription has been disposed too.
    ///
    ///     source:                               -1-2-3-4-----5|
    ///     window(timeSpan: 6 ticks, count: 3):
    ///         window 0 at 0: 1 2 3 completed at 5 (full)
    ///         window 1 at 5: 4 completed at 11 (timer)
    ///         window 2 at 11: 5 completed at 14
    ///
    /// - Parameters:
    ///   - timeSpan: the longest time a window stays open.
    ///   - count: the most elements a window receives.
    ///   - scheduler: the scheduler that runs the timers.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        WindowTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class WindowTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Observable<Element> {
    /// One delivery, in the order the state changed: to a window or downstream.
    private enum Delivery {
        case window(PublishSubject<Element>, Event<Element>)
        case outer(Event<Observable<Element>>)
    }

    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: WindowTimerState, @unchecked Sendable {
        var subject = PublishSubject<Element>()
        var count = 0
        var windowTimer = WindowTimer()
        var delivery = SerialDelivery<Delivery>()

        /// Queues `item`; sets `first` to it when the caller must start emitting.
        mutating func begin(_ item: Delivery, _ first: inout Delivery?) {
            let began = delivery.begin(item)
            if first == nil {
                first = began
            }
        }

        /// Completes the current window and emits a new one.
        mutating func startNewWindowAndCompleteCurrentOne(refCount: RefCountDisposable, _ first: inout Delivery?) -> Int {
            count = 0
            windowTimer.windowID &+= 1
            begin(.window(subject, .completed), &first)
            subject = PublishSubject<Element>()
            begin(.outer(.next(WindowObservable(subject: subject, refCount: refCount))), &first)
            return windowTimer.windowID
        }
    }

    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let state = Mutex(State())
    private let group = CompositeDisposable()
    private let refCount: RefCountDisposable

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        self.refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = group.insert(Disposables.create { self.state.stopWindowTimer() })
        let first = state.withLock { state -> Delivery? in
            state.delivery.begin(.outer(.next(WindowObservable(subject: state.subject, refCount: refCount))))
        }
        drain(first)
        createTimer(0)
        _ = group.insert(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        var first: Delivery?
        var newWindowID: Int?
        state.withLock { state in
            switch event {
            case .next:
                state.begin(.window(state.subject, event), &first)
                state.count += 1
                if state.count == count {
                    newWindowID = state.startNewWindowAndCompleteCurrentOne(refCount: refCount, &first)
                }
            case .error(let error):
                state.begin(.window(state.subject, event), &first)
                state.begin(.outer(.error(error)), &first)
            case .completed:
                state.begin(.window(state.subject, event), &first)
                state.begin(.outer(.completed), &first)
            }
        }
        drain(first)
        if let newWindowID {
            createTimer(newWindowID)
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
        var first: Delivery?
        let newWindowID = state.withLock { state -> Int? in
            guard state.windowTimer.windowID == windowID else { return nil }
            return state.startNewWindowAndCompleteCurrentOne(refCount: refCount, &first)
        }
        drain(first)
        if let newWindowID {
            createTimer(newWindowID)
        }
    }

    /// The emitter loop. Windows receive their events even after the outer
    /// subscription is disposed; the outer events stop at `forwardOn`.
    private func drain(_ first: Delivery?) {
        drainSerially(first, next: { state.withLock { $0.delivery.next() } }) { delivery in
            switch delivery {
            case .window(let subject, let event):
                subject.on(event)
            case .outer(let event):
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                }
            }
        }
    }
}

/// A window as handed downstream: subscribing subscribes to the window's
/// subject and holds a reference on the source subscription until disposed.
private final class WindowObservable<Element>: Producer<Element> {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let release = refCount.retain()
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let subscription = Disposables.create(release, subject.subscribe(sink))
        return (sink: sink, subscription: subscription)
    }
}

private final class WindowTimeCount<Element>: Producer<Observable<Element>> {
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
