import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// Subscribes to `groupBy { $0 % 3 }` at `subscribeAt` and to each group
/// `innerDelay` ticks after the group arrives, recording the outer keys and
/// each group's events.
private final class GroupByHarness {
    let scheduler: TestScheduler
    let keys: TestableObserver<Int>
    var groups: [Int: TestableObserver<Int>] = [:]
    var innerSubscriptions: [Int: Disposable] = [:]
    var outerSubscription: Disposable?
    var received: [Int: GroupedObservable<Int, Int>] = [:]

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
        self.keys = scheduler.createObserver(Int.self)
    }

    func start(
        _ source: TestableObservable<Int>,
        subscribeAt: TestTime = 200,
        innerDelay: Int? = 0,
        keySelector: @escaping (Int) throws -> Int = { $0 % 3 }
    ) {
        scheduler.scheduleAt(subscribeAt) { [unowned self] in
            self.outerSubscription = source.groupBy(keySelector: keySelector).subscribe { [unowned self] event in
                switch event {
                case .next(let group):
                    self.keys.onNext(group.key)
                    self.received[group.key] = group
                    guard let innerDelay else { return }
                    let observer = self.scheduler.createObserver(Int.self)
                    self.groups[group.key] = observer
                    if innerDelay == 0 {
                        self.innerSubscriptions[group.key] = group.subscribe(observer)
                    } else {
                        self.scheduler.scheduleAt(self.scheduler.clock + innerDelay) {
                            self.innerSubscriptions[group.key] = group.subscribe(observer)
                        }
                    }
                case .error(let error):
                    self.keys.onError(error)
                case .completed:
                    self.keys.onCompleted()
                }
            }
        }
        scheduler.scheduleAt(1000) { [unowned self] in self.disposeAll() }
    }

    func disposeAll() {
        outerSubscription?.dispose()
        for (_, subscription) in innerSubscriptions {
            subscription.dispose()
        }
    }
}

final class GroupByTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(300)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 9),
            .next(210, 1),
            .next(220, 2),
            .next(230, 4),
            .next(240, 3),
            .next(250, 5),
            .next(260, 7),
            end,
        ])
    }

    func testGroupBy_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.groupBy { $0 % 3 }.map { $0.key } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testGroupBy_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.groupBy { $0 % 3 }.map { $0.key } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_OuterKeys() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var keyCalls = 0
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                keyCalls += 1
                return value % 3
            }.map { $0.key }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 0), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(keyCalls, 6)
    }

    func testGroupBy_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(300, testError))
        let res = scheduler.start { xs.groupBy { $0 % 3 }.map { $0.key } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 0), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_OuterDispose_NoGroupSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 235) { xs.groupBy { $0 % 3 }.map { $0.key } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testGroupBy_GroupContents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs)
        scheduler.start()
        XCTAssertEqual(harness.keys.events, [.next(210, 1), .next(220, 2), .next(240, 0), .completed(300)])
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4), .next(260, 7), .completed(300)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2), .next(250, 5), .completed(300)])
        XCTAssertEqual(harness.groups[0]?.events ?? [], [.next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_LateGroupSubscriberSeesOnlyLaterElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs, innerDelay: 25)
        scheduler.start()
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(260, 7), .completed(300)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(250, 5), .completed(300)])
        XCTAssertEqual(harness.groups[0]?.events ?? [], [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_ErrorReachesEveryGroup() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(300, testError))
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs)
        scheduler.start()
        XCTAssertEqual(harness.keys.events, [.next(210, 1), .next(220, 2), .next(240, 0), .error(300, testError)])
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4), .next(260, 7), .error(300, testError)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2), .next(250, 5), .error(300, testError)])
        XCTAssertEqual(harness.groups[0]?.events ?? [], [.next(240, 3), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_KeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs) { value in
            if value == 5 { throw testError }
            return value % 3
        }
        scheduler.start()
        XCTAssertEqual(harness.keys.events, [.next(210, 1), .next(220, 2), .next(240, 0), .error(250, testError)])
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4), .error(250, testError)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2), .error(250, testError)])
        XCTAssertEqual(harness.groups[0]?.events ?? [], [.next(240, 3), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testGroupBy_OuterDisposeKeepsActiveGroupsAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs)
        scheduler.scheduleAt(225) { harness.outerSubscription?.dispose() }
        scheduler.start()
        // No new group after the outer dispose, and group 0's elements go nowhere.
        XCTAssertEqual(harness.keys.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4), .next(260, 7), .completed(300)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2), .next(250, 5), .completed(300)])
        XCTAssertNil(harness.groups[0])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_UpstreamDisposedWithLastSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs)
        scheduler.scheduleAt(225) { harness.outerSubscription?.dispose() }
        scheduler.scheduleAt(235) { harness.innerSubscriptions[1]?.dispose() }
        scheduler.scheduleAt(255) { harness.innerSubscriptions[2]?.dispose() }
        scheduler.start()
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2), .next(250, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 255)])
    }

    func testGroupBy_GroupDisposeDoesNotStopOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs)
        scheduler.scheduleAt(235) {
            for (_, subscription) in harness.innerSubscriptions { subscription.dispose() }
        }
        scheduler.start()
        XCTAssertEqual(harness.keys.events, [.next(210, 1), .next(220, 2), .next(240, 0), .completed(300)])
        XCTAssertEqual(harness.groups[1]?.events ?? [], [.next(210, 1), .next(230, 4)])
        XCTAssertEqual(harness.groups[2]?.events ?? [], [.next(220, 2)])
        XCTAssertEqual(harness.groups[0]?.events ?? [], [.next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_SubscribeToGroupAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs, innerDelay: nil)
        let late = scheduler.createObserver(Int.self)
        var lateSubscription: Disposable?
        scheduler.scheduleAt(400) { lateSubscription = harness.received[1]?.subscribe(late) }
        scheduler.scheduleAt(1000) { lateSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(late.events, [.completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_SubscribeToGroupAfterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(300, testError))
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs, innerDelay: nil)
        let late = scheduler.createObserver(Int.self)
        var lateSubscription: Disposable?
        scheduler.scheduleAt(400) { lateSubscription = harness.received[2]?.subscribe(late) }
        scheduler.scheduleAt(1000) { lateSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(late.events, [.error(400, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testGroupBy_SubscribeToGroupAfterOuterDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let harness = GroupByHarness(scheduler: scheduler)
        harness.start(xs, innerDelay: nil)
        scheduler.scheduleAt(225) { harness.outerSubscription?.dispose() }
        let late = scheduler.createObserver(Int.self)
        var lateSubscription: Disposable?
        scheduler.scheduleAt(400) { lateSubscription = harness.received[1]?.subscribe(late) }
        scheduler.scheduleAt(1000) { lateSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(late.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testGroupBy_GroupEmittedBeforeItsFirstElement() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var inner: [Disposable] = []
        let subscription = subject.groupBy { $0 % 2 }.subscribe(onNext: { group in
            log.append("group \(group.key)")
            inner.append(group.subscribe(onNext: { log.append("\(group.key): \($0)") }))
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(log, ["group 1", "1: 1", "group 0", "0: 2", "1: 3"])
        subscription.dispose()
        inner.forEach { $0.dispose() }
        XCTAssertFalse(subject.hasObservers)
    }

    func testGroupBy_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var keys: [Int] = []
        var subscription: Disposable?
        subscription = subject.groupBy { $0 % 2 }.subscribe(onNext: { group in
            keys.append(group.key)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(keys, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testGroupBy_GroupedObservableKeyAndSource() {
        let group = GroupedObservable(key: "k", source: Observable.just(1))
        var values: [Int] = []
        _ = group.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(group.key, "k")
        XCTAssertEqual(values, [1])
    }
}
