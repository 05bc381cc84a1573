import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ReplaySubjectTests: RxCoreTestCase {
    private let completingEvents: [Recorded<Event<Int>>] = [
        .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
        .next(410, 6), .next(520, 7), .next(580, 8), .completed(630), .next(640, 9),
    ]

    /// Subscribes the subject made at 100 to a hot source at 200, and three
    /// observers at 300, 600 and 700 (all disposed at 1000).
    private func runScenario(
        _ events: [Recorded<Event<Int>>],
        makeSubject: @escaping () -> ReplaySubject<Int>
    ) -> (TestableObservable<Int>, [TestableObserver<Int>]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        var subject: ReplaySubject<Int>!
        var subscription: Disposable!
        let results = (0..<3).map { _ in scheduler.createObserver(Int.self) }
        var subscriptions: [Disposable?] = [nil, nil, nil]

        scheduler.scheduleAt(100) { subject = makeSubject() }
        scheduler.scheduleAt(200) { subscription = xs.subscribe(subject) }
        scheduler.scheduleAt(300) { subscriptions[0] = subject.subscribe(results[0]) }
        scheduler.scheduleAt(600) { subscriptions[1] = subject.subscribe(results[1]) }
        scheduler.scheduleAt(700) { subscriptions[2] = subject.subscribe(results[2]) }
        scheduler.scheduleAt(1000) {
            subscription.dispose()
            subscriptions.forEach { $0?.dispose() }
        }
        scheduler.start()
        return (xs, results)
    }

    func testReplaySubject_BufferSize3TrimsTheOldest() {
        let (xs, results) = runScenario(completingEvents) { ReplaySubject.create(bufferSize: 3) }
        XCTAssertEqual(
            results[0].events,
            [
                .next(300, 3), .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7), .next(580, 8), .completed(630),
            ])
        XCTAssertEqual(results[1].events, [.next(600, 6), .next(600, 7), .next(600, 8), .completed(630)])
        XCTAssertEqual(results[2].events, [.next(700, 6), .next(700, 7), .next(700, 8), .completed(700)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testReplaySubject_BufferSize1() {
        let (_, results) = runScenario(completingEvents) { ReplaySubject.create(bufferSize: 1) }
        XCTAssertEqual(
            results[0].events,
            [
                .next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7), .next(580, 8), .completed(630),
            ])
        XCTAssertEqual(results[1].events, [.next(600, 8), .completed(630)])
        XCTAssertEqual(results[2].events, [.next(700, 8), .completed(700)])
    }

    func testReplaySubject_BufferSize0ReplaysOnlyTheTerminalEvent() {
        let (_, results) = runScenario(completingEvents) { ReplaySubject.create(bufferSize: 0) }
        XCTAssertEqual(
            results[0].events,
            [
                .next(340, 5), .next(410, 6), .next(520, 7), .next(580, 8), .completed(630),
            ])
        XCTAssertEqual(results[1].events, [.completed(630)])
        XCTAssertEqual(results[2].events, [.completed(700)])
    }

    func testReplaySubject_Unbounded() {
        let (_, results) = runScenario(completingEvents) { ReplaySubject.createUnbounded() }
        XCTAssertEqual(
            results[1].events,
            [
                .next(600, 3), .next(600, 4), .next(600, 5), .next(600, 6), .next(600, 7), .next(600, 8), .completed(630),
            ])
        XCTAssertEqual(
            results[2].events,
            [
                .next(700, 3), .next(700, 4), .next(700, 5), .next(700, 6), .next(700, 7), .next(700, 8), .completed(700),
            ])
    }

    func testReplaySubject_Error() {
        let (_, results) = runScenario([
            .next(220, 3), .next(270, 4), .next(340, 5), .error(630, testError), .next(640, 9),
        ]) { ReplaySubject.create(bufferSize: 2) }
        XCTAssertEqual(results[0].events, [.next(300, 3), .next(300, 4), .next(340, 5), .error(630, testError)])
        XCTAssertEqual(results[1].events, [.next(600, 4), .next(600, 5), .error(630, testError)])
        XCTAssertEqual(results[2].events, [.next(700, 4), .next(700, 5), .error(700, testError)])
    }

    func testReplaySubject_Never() {
        let (_, results) = runScenario([.next(70, 1)]) { ReplaySubject.create(bufferSize: 3) }
        XCTAssertEqual(results[0].events, [])
        XCTAssertEqual(results[2].events, [])
    }

    func testReplaySubject_BufferTrimmingKeepsTheLastElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for value in 1...100 { subject.onNext(value) }
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [98, 99, 100])
        subject.onNext(101)
        XCTAssertEqual(received, [98, 99, 100, 101])
        var late: [Int] = []
        let lateSubscription = subject.subscribe(onNext: { late.append($0) })
        XCTAssertEqual(late, [99, 100, 101])
        subscription.dispose()
        lateSubscription.dispose()
    }

    func testReplaySubject_NegativeBufferSizeActsAsZero() {
        let subject = ReplaySubject<Int>.create(bufferSize: -5)
        subject.onNext(1)
        subject.onCompleted()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
    }

    func testReplaySubject_Dispose() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        XCTAssertTrue(subject.hasObservers)
        subject.dispose()
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        XCTAssertEqual(events, [.next(1)])

        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late.count, 1)
        XCTAssertEqual(late.first?.error as? RxError, RxError.disposed(object: "ReplaySubject"))
        subscription.dispose()
    }

    func testReplaySubject_UnsubscribeStopsDelivery() {
        let subject = ReplaySubject<Int>.createUnbounded()
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testReplaySubject_DisposeFromInsideReplay() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription?.dispose() }
        })
        // The replay runs inside subscribe, before `subscription` is assigned;
        // dispose it afterwards and check nothing else arrives.
        subscription?.dispose()
        subject.onNext(4)
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertFalse(subject.hasObservers)
    }

    func testReplaySubject_SubscribeFromInsideOnNextReplaysInOrder() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        var inner: [Int] = []
        var innerSubscription: Disposable?
        let outer = subject.subscribe(onNext: { value in
            if value == 2 && innerSubscription == nil {
                innerSubscription = subject.subscribe(onNext: { inner.append($0) })
                subject.onNext(3)
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(inner, [1, 2, 3])
        outer.dispose()
        innerSubscription?.dispose()
    }

    func testReplaySubject_ConcurrentSubscribersSeeEveryElementInOrder() {
        let subject = ReplaySubject<Int>.createUnbounded()
        let count = 2_000
        final class Log: @unchecked Sendable { var values: [Int] = [] }
        let logs = (0..<50).map { _ in Log() }
        let subscriptions = SharingTestBox<[Disposable?]>(Array(repeating: nil, count: 50))
        DispatchQueue.concurrentPerform(iterations: 51) { index in
            if index == 50 {
                for value in 0..<count { subject.onNext(value) }
            } else {
                let log = logs[index]
                let subscription = subject.subscribe(onNext: { log.values.append($0) })
                subscriptions.update { $0[index] = subscription }
            }
        }
        for log in logs {
            XCTAssertEqual(log.values, Array(0..<count))
        }
        subscriptions.update { $0.forEach { $0?.dispose() } }
    }

    func testReplaySubject_ConcurrentSendersNeverInterleave() {
        let subject = ReplaySubject<Int>.create(bufferSize: 4)
        let inside = ManagedCounter()
        let overlapped = ManagedCounter()
        let received = ManagedCounter()
        let subscription = subject.subscribe(onNext: { _ in
            if inside.increment() != 1 { overlapped.increment() }
            received.increment()
            inside.decrement()
        })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 { subject.onNext(thread * 100 + value) }
        }
        XCTAssertEqual(overlapped.current, 0)
        XCTAssertEqual(received.current, 10_000)
        subscription.dispose()
    }
}
