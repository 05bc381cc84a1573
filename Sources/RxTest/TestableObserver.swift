import RxCore

/// An observer that records every event with the tick at which it arrived.
public final class TestableObserver<Element>: ObserverType {
    private weak var scheduler: TestScheduler?

    /// The recorded events, in arrival order.
    public private(set) var events = [Recorded<Event<Element>>]()

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Records `event` at the scheduler's current tick.
    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler?.clock ?? 0, value: event))
    }
}
