import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ConnectableObservableTests: RxCoreTestCase {
    private func hotSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(110, 1), .next(220, 2), .next(280, 3), .next(340, 4), .next(360, 5),
            .next(410, 6), .next(430, 7), .next(450, 8), .next(520, 9), .next(560, 10),
            .next(580, 11), .next(610, 12), .completed(800),
        ])
    }

    /// Connects 300-400, subscribes at 405, connects 420 (and again at 440,
    /// which returns the same connection, disposed at 530), connects 575-620.
    private func runConnections(
        _ scheduler: TestScheduler,
        makeConnectable: @escaping () -> ConnectableObservable<Int>
    ) -> TestableObserver<Int> {
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        var connection: Disposable?
        var innerConnection: Disposable?
        var lastConnection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = makeConnectable() }
        scheduler.scheduleAt(405) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduler.scheduleAt(300) { connection = ys.connect() }
        scheduler.scheduleAt(400) { connection?.dispose() }
        scheduler.scheduleAt(420) { connection = ys.connect() }
        scheduler.scheduleAt(440) { innerConnection = ys.connect() }
        scheduler.scheduleAt(530) { innerConnection?.dispose() }
        scheduler.scheduleAt(575) { lastConnection = ys.connect() }
        scheduler.scheduleAt(590) { connection?.dispose() }
        scheduler.scheduleAt(620) { lastConnection?.dispose() }
        scheduler.start()
        return res
    }

    func testConnectableObservable_ConnectControlsSourceSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = runConnections(scheduler) { xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 2) }) }
        // A new subject per connection: the subscriber of 405 sees only the second one.
        XCTAssertEqual(res.events, [.next(430, 7), .next(450, 8), .next(520, 9)])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 400), Subscription(420, 530), Subscription(575, 620)])
    }

    func testConnectableObservable_FixedSubjectServesEveryConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = runConnections(scheduler) { xs.multicast(ReplaySubject<Int>.create(bufferSize: 2)) }
        XCTAssertEqual(
            res.events,
            [
                .next(405, 4), .next(405, 5), .next(430, 7), .next(450, 8), .next(520, 9), .next(580, 11), .next(610, 12),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 400), Subscription(420, 530), Subscription(575, 620)])
    }

    func testConnectableObservable_NotConnectedEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start { xs.publish() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testConnectableObservable_ConnectWhileConnectedReturnsTheSameConnection() {
        let subject = PublishSubject<Int>()
        let connectable = subject.publish()
        let first = connectable.connect()
        let second = connectable.connect()
        XCTAssertTrue((first as AnyObject) === (second as AnyObject))
        XCTAssertTrue(subject.hasObservers)
        second.dispose()
        XCTAssertFalse(subject.hasObservers)
        first.dispose()
        let third = connectable.connect()
        XCTAssertFalse((first as AnyObject) === (third as AnyObject))
        XCTAssertTrue(subject.hasObservers)
        third.dispose()
    }

    func testConnectableObservable_ResubscribeAndConnectFromInsideOnCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(310, 1), .next(330, 2), .completed(340), .next(350, 3), .next(370, 4), .completed(600),
        ])
        var ys: ConnectableObservable<Int>!
        let res = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        var connections: [Disposable] = []
        scheduler.scheduleAt(100) { ys = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) }) }
        scheduler.scheduleAt(300) {
            subscriptions.append(
                ys.subscribe { event in
                    res.on(event)
                    if event.isCompleted {
                        subscriptions.append(ys.subscribe(res))
                        connections.append(ys.connect())
                    }
                })
        }
        scheduler.scheduleAt(305) { connections.append(ys.connect()) }
        scheduler.scheduleAt(500) {
            connections.forEach { $0.dispose() }
            subscriptions.forEach { $0.dispose() }
            // The first subscription's closure captures this array: break the cycle.
            connections.removeAll()
            subscriptions.removeAll()
        }
        scheduler.start()
        // The new subscriber gets a fresh subject: no replay of 2.
        XCTAssertEqual(res.events, [.next(310, 1), .next(330, 2), .completed(340), .next(350, 3), .next(370, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(305, 340), Subscription(340, 500)])
    }

    func testConnectableObservable_FixedSubjectAfterErrorGivesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError), .next(330, 2)])
        var ys: ConnectableObservable<Int>!
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        var connection: Disposable?
        scheduler.scheduleAt(100) { ys = xs.multicast(PublishSubject<Int>()) }
        scheduler.scheduleAt(150) { subscriptions.append(ys.subscribe(early)) }
        scheduler.scheduleAt(200) { connection = ys.connect() }
        scheduler.scheduleAt(300) { subscriptions.append(ys.subscribe(late)) }
        scheduler.scheduleAt(320) { connection = ys.connect() }
        scheduler.scheduleAt(400) { connection?.dispose() }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .error(250, testError)])
        XCTAssertEqual(late.events, [.error(300, testError)])
        // Connecting again subscribes the source again, into the stopped subject.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(320, 400)])
        subscriptions.forEach { $0.dispose() }
    }

    func testConnectableObservable_SynchronousSourceCanBeConnectedAgain() {
        let connectable = Observable.just(1).publish()
        var first: [Event<Int>] = []
        _ = connectable.subscribe { first.append($0) }
        _ = connectable.connect()
        XCTAssertEqual(first, [.next(1), .completed])

        var second: [Event<Int>] = []
        _ = connectable.subscribe { second.append($0) }
        _ = connectable.connect()
        XCTAssertEqual(second, [.next(1), .completed])
        XCTAssertEqual(first, [.next(1), .completed])
    }

    func testConnectableObservable_ErrorSourceReleasesResources() {
        let connectable = Observable<Int>.error(testError).publish()
        var events: [Event<Int>] = []
        _ = connectable.subscribe { events.append($0) }
        _ = connectable.connect()
        XCTAssertEqual(events, [.error(testError)])
    }

    func testConnectableObservable_DisposeConnectionFromOtherThread() {
        let subject = PublishSubject<Int>()
        nonisolated(unsafe) let connectable = subject.publish()
        var received: [Int] = []
        let subscription = connectable.subscribe(onNext: { received.append($0) })
        let connection = connectable.connect()
        subject.onNext(1)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            connection.dispose()
            connection.dispose()
            done.signal()
        }
        done.wait()
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testConnectableObservable_ConcurrentConnectAndDispose() {
        let subject = PublishSubject<Int>()
        nonisolated(unsafe) let connectable = subject.publish()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            for _ in 0..<50 {
                let connection = connectable.connect()
                subject.onNext(1)
                connection.dispose()
            }
        }
        XCTAssertFalse(subject.hasObservers)
    }
}
