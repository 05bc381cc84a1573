import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class BehaviorSubjectTests: RxCoreTestCase {
    /// Drives `subject` from a hot source and subscribes three observers at
    /// different times; returns what they received.
    private func runScenario(
        _ events: [Recorded<Event<Int>>],
        scheduler: TestScheduler,
        subscribe3At: TestTime = 900
    ) -> (TestableObservable<Int>, [TestableObserver<Int>]) {
        let xs = scheduler.createHotObservable(events)
        var subject: BehaviorSubject<Int>!
        var subscription: Disposable!
        let results = [scheduler.createObserver(Int.self), scheduler.createObserver(Int.self), scheduler.createObserver(Int.self)]
        var subscriptions: [Disposable?] = [nil, nil, nil]

        scheduler.scheduleAt(100) { subject = BehaviorSubject(value: 100) }
        scheduler.scheduleAt(200) { subscription = xs.subscribe(subject) }
        scheduler.scheduleAt(1000) { subscription.dispose() }
        scheduler.scheduleAt(300) { subscriptions[0] = subject.subscribe(results[0]) }
        scheduler.scheduleAt(400) { subscriptions[1] = subject.subscribe(results[1]) }
        scheduler.scheduleAt(subscribe3At) { subscriptions[2] = subject.subscribe(results[2]) }
        scheduler.scheduleAt(600) { subscriptions[0]?.dispose() }
        scheduler.scheduleAt(650) { subscriptions[1]?.dispose() }
        scheduler.scheduleAt(950) { subscriptions[2]?.dispose() }
        scheduler.start()
        return (xs, results)
    }

    func testBehaviorSubject_Infinite() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, results) = runScenario(
            [
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .next(630, 8), .next(710, 9), .next(870, 10),
                .next(940, 11), .next(1020, 12),
            ], scheduler: scheduler)

        XCTAssertEqual(results[0].events, [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
        XCTAssertEqual(results[1].events, [.next(400, 5), .next(410, 6), .next(520, 7), .next(630, 8)])
        XCTAssertEqual(results[2].events, [.next(900, 10), .next(940, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testBehaviorSubject_NoElementYetGetsInitialValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, results) = runScenario([.next(340, 5)], scheduler: scheduler)
        XCTAssertEqual(results[0].events, [.next(300, 100), .next(340, 5)])
    }

    func testBehaviorSubject_Completed() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, results) = runScenario(
            [
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .completed(630), .next(640, 9), .completed(650),
            ], scheduler: scheduler)

        XCTAssertEqual(results[0].events, [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
        XCTAssertEqual(results[1].events, [.next(400, 5), .next(410, 6), .next(520, 7), .completed(630)])
        XCTAssertEqual(results[2].events, [.completed(900)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testBehaviorSubject_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, results) = runScenario(
            [
                .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5),
                .next(410, 6), .next(520, 7), .error(630, testError), .next(640, 9), .completed(650),
            ], scheduler: scheduler)

        XCTAssertEqual(results[0].events, [.next(300, 4), .next(340, 5), .next(410, 6), .next(520, 7)])
        XCTAssertEqual(results[1].events, [.next(400, 5), .next(410, 6), .next(520, 7), .error(630, testError)])
        XCTAssertEqual(results[2].events, [.error(900, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testBehaviorSubject_Canceled() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, results) = runScenario([.completed(630), .next(640, 9)], scheduler: scheduler)
        XCTAssertEqual(results[0].events, [.next(300, 100)])
        XCTAssertEqual(results[1].events, [.next(400, 100), .completed(630)])
        XCTAssertEqual(results[2].events, [.completed(900)])
    }

    func testBehaviorSubject_Value() throws {
        let subject = BehaviorSubject(value: 1)
        XCTAssertEqual(try subject.value(), 1)
        subject.onNext(2)
        XCTAssertEqual(try subject.value(), 2)
        subject.onCompleted()
        XCTAssertEqual(try subject.value(), 2)
        subject.onNext(3)
        XCTAssertEqual(try subject.value(), 2)
    }

    func testBehaviorSubject_ValueThrowsTheError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(testError)
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testBehaviorSubject_ValueThrowsDisposed() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? RxError, RxError.disposed(object: "BehaviorSubject"))
        }
        // Dispose wins over an earlier error.
        let failed = BehaviorSubject(value: 1)
        failed.onError(testError)
        failed.dispose()
        XCTAssertThrowsError(try failed.value()) { error in
            XCTAssertEqual(error as? RxError, RxError.disposed(object: "BehaviorSubject"))
        }
    }

    func testBehaviorSubject_Dispose() {
        let subject = BehaviorSubject(value: 1)
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        XCTAssertTrue(subject.hasObservers)
        subject.dispose()
        subject.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(events, [.next(1)])

        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late.count, 1)
        XCTAssertEqual(late.first?.error as? RxError, RxError.disposed(object: "BehaviorSubject"))
        subscription.dispose()
    }

    func testBehaviorSubject_UnsubscribeStopsDelivery() {
        let subject = BehaviorSubject(value: 1)
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(2)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(3)
        XCTAssertEqual(received, [1, 2])
        XCTAssertFalse(subject.hasObservers)
    }

    func testBehaviorSubject_DisposeFromInsideOnNext() {
        let subject = BehaviorSubject(value: 0)
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subscription?.dispose() }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [0, 1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testBehaviorSubject_ReentrantSendIsSerialisedAndValueIsCurrent() throws {
        let subject = BehaviorSubject(value: 0)
        var first: [Int] = []
        var second: [Int] = []
        var valuesSeenInside: [Int] = []
        let a = subject.subscribe(onNext: { value in
            first.append(value)
            if value == 1 {
                subject.onNext(2)
                // The send is applied at once even though its delivery waits.
                valuesSeenInside.append(try! subject.value())
                subject.onNext(try! subject.value() + 1)
            }
        })
        let b = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        XCTAssertEqual(first, [0, 1, 2, 3])
        XCTAssertEqual(second, [0, 1, 2, 3])
        XCTAssertEqual(valuesSeenInside, [2])
        XCTAssertEqual(try subject.value(), 3)
        a.dispose()
        b.dispose()
    }

    func testBehaviorSubject_SubscribeFromInsideOnNextGetsCurrentValueOnce() {
        let subject = BehaviorSubject(value: 0)
        var inner: [Int] = []
        var innerSubscription: Disposable?
        let outer = subject.subscribe(onNext: { value in
            if value == 1 && innerSubscription == nil {
                innerSubscription = subject.subscribe(onNext: { inner.append($0) })
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(inner, [1, 2])
        outer.dispose()
        innerSubscription?.dispose()
    }

    func testBehaviorSubject_ConcurrentSendersFromManyThreads() throws {
        let subject = BehaviorSubject(value: -1)
        let inside = ManagedCounter()
        let overlapped = ManagedCounter()
        var received = 0
        let subscription = subject.subscribe(onNext: { _ in
            if inside.increment() != 1 { overlapped.increment() }
            received += 1
            inside.decrement()
        })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 {
                subject.onNext(thread * 100 + value)
                _ = try? subject.value()
            }
        }
        XCTAssertEqual(overlapped.current, 0)
        XCTAssertEqual(received, 1 + 10_000)
        XCTAssertNotEqual(try subject.value(), -1)
        subscription.dispose()
    }

    func testBehaviorSubject_ConcurrentSubscribersSeeContiguousRuns() {
        let subject = BehaviorSubject(value: 0)
        let count = 2_000
        final class Log: @unchecked Sendable { var values: [Int] = [] }
        let logs = (0..<100).map { _ in Log() }
        let subscriptions = SharingTestBox<[Disposable?]>(Array(repeating: nil, count: 100))
        DispatchQueue.concurrentPerform(iterations: 101) { index in
            if index == 100 {
                for value in 1...count { subject.onNext(value) }
            } else {
                let log = logs[index]
                let subscription = subject.subscribe(onNext: { log.values.append($0) })
                subscriptions.update { $0[index] = subscription }
            }
        }
        for log in logs {
            // The current value at subscription, then every later send, in order.
            XCTAssertEqual(log.values, Array((log.values.first ?? 0)...count))
        }
        subscriptions.update { $0.forEach { $0?.dispose() } }
    }

    func testBehaviorSubject_DisposeSubscriptionFromOtherThread() {
        let subject = BehaviorSubject(value: 0)
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subscription.dispose()
            done.signal()
        }
        done.wait()
        subject.onNext(2)
        XCTAssertEqual(received, [0, 1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testBehaviorSubject_DisposeSubjectFromOtherThreadWhileSending() {
        let subject = BehaviorSubject(value: 0)
        let received = ManagedCounter()
        let subscription = subject.subscribe(onNext: { _ in received.increment() })
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 1...10_000 { subject.onNext(value) }
            done.signal()
        }
        subject.dispose()
        done.wait()
        let atEnd = received.current
        subject.onNext(-1)
        XCTAssertEqual(received.current, atEnd)
        XCTAssertFalse(subject.hasObservers)
        XCTAssertThrowsError(try subject.value())
        subscription.dispose()
    }
}
