import RxCore

/// A virtual-time scheduler for exact marble tests.
///
/// Time is counted in ticks (`TestTime`). With the default resolution one
/// tick is one second, so `.seconds(20)` in an operator is 20 ticks. With
/// `simulateProcessingDelay` (the default) work scheduled for "now" runs one
/// tick later, as in RxTest. `start { ... }` creates the sequence at 100,
/// subscribes at 200 and disposes at 1000, then runs all scheduled work.
// @unchecked Sendable: as `VirtualTimeScheduler` (its state under its lock);
// it adds only immutable fields.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    /// The default times of `start`.
    public struct Defaults {
        /// When the sequence is created: 100.
        public static let created = 100
        /// When it is subscribed: 200.
        public static let subscribed = 200
        /// When the subscription is disposed: 1000.
        public static let disposed = 1000
    }

    private let simulateProcessingDelay: Bool

    /// Creates a scheduler whose clock starts at `initialClock` ticks.
    ///
    /// - Parameters:
    ///   - initialClock: the tick the clock starts at (RxTest's tests use 0).
    ///   - resolution: seconds per tick.
    ///   - simulateProcessingDelay: run work scheduled for now (or the past) one tick later.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Moves work scheduled for now or the past to the next tick, when
    /// processing delay is simulated.
    public override func adjustScheduledTime(_ time: Int) -> Int {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Creates a hot observable that emits `events` at their absolute times,
    /// to whoever is subscribed then.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates a cold observable that replays `events` to each subscriber, at
    /// times relative to its subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates an observer that records every event with the tick it arrived at.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at tick `time`.
    ///
    /// `action` need not be `@Sendable`: virtual time runs every action on
    /// the thread that calls `start()` (or `advanceTo(_:)`), one at a time.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAtVirtualTime(time, action)
    }

    /// Runs `action` `dueTime` ticks from now; the returned disposable
    /// removes it if it has not run. Like `scheduleAt`, `action` runs on the
    /// thread that drives virtual time.
    func scheduleAfter(_ dueTime: TestTime, _ action: @escaping () -> Void) -> Disposable {
        let action = UncheckedSendable(action)
        return scheduleRelativeVirtual((), dueTime: dueTime) { _ in
            action.value()
            return Disposables.create()
        }
    }

    private func scheduleAtVirtualTime(_ time: TestTime, _ action: @escaping () -> Void) -> Disposable {
        let action = UncheckedSendable(action)
        return scheduleAbsoluteVirtual((), time: time) { _ in
            action.value()
            return Disposables.create()
        }
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes
    /// at `disposed`, runs all scheduled work and returns what was observed.
    public func start<Element, Output: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> Output
    ) -> TestableObserver<Element> where Output.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)

        scheduleAt(created) {
            source = create().asObservable()
        }
        scheduleAt(subscribed) {
            subscription = source?.subscribe(observer)
        }
        scheduleAt(disposed) {
            subscription?.dispose()
            subscription = nil
            source = nil
        }

        start()
        return observer
    }

    /// `start` with the default creation (100) and subscription (200) times.
    public func start<Element, Output: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping () -> Output
    ) -> TestableObserver<Element> where Output.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start` with the default times: created 100, subscribed 200, disposed 1000.
    public func start<Element, Output: ObservableConvertibleType>(
        _ create: @escaping () -> Output
    ) -> TestableObserver<Element> where Output.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}
