import RxCore

/// An observable made from recorded events, which logs every subscription
/// (`subscriptions`) with the ticks it started and ended.
public class TestableObservable<Element>: ObservableType {
    /// The events this observable emits.
    public let recordedEvents: [Recorded<Event<Element>>]

    /// Every subscription so far: when it started and, if it did, when it ended.
    public internal(set) var subscriptions: [Subscription] = []

    weak var testScheduler: TestScheduler?

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`; `HotObservable` and `ColdObservable` define what it receives.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        preconditionFailure("\(type(of: self)) does not implement subscribe(_:)")
    }

    var clock: TestTime {
        testScheduler?.clock ?? 0
    }

    /// Records the start of a subscription and returns its index.
    func recordSubscribe() -> Int {
        subscriptions.append(Subscription(clock))
        return subscriptions.count - 1
    }

    /// Records the end of subscription `index`.
    func recordUnsubscribe(_ index: Int) {
        let started = subscriptions[index].subscribe
        subscriptions[index] = Subscription(started, clock)
    }
}

/// Emits its recorded events at their absolute times to the current subscribers.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [Int: (Event<Element>) -> Void] = [:]
    private var nextKey = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for key in self.observers.keys.sorted() {
                    self.observers[key]?(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        observers[key] = observer.on
        let index = recordSubscribe()
        var disposed = false
        return Disposables.create { [weak self] in
            guard let self, !disposed else { return }
            disposed = true
            self.observers[key] = nil
            self.recordUnsubscribe(index)
        }
    }
}

/// Replays its recorded events to each subscriber, at times relative to the subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscribe()
        let scheduled = CompositeDisposable()
        var active = true
        for recorded in recordedEvents {
            guard let scheduler = testScheduler else { break }
            let item = scheduler.scheduleAfter(recorded.time) {
                if active {
                    observer.on(recorded.value)
                }
            }
            _ = scheduled.insert(item)
        }
        return Disposables.create { [weak self] in
            guard active else { return }
            active = false
            scheduled.dispose()
            self?.recordUnsubscribe(index)
        }
    }
}
