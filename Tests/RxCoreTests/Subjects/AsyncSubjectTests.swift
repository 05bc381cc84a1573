import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class AsyncSubjectTests: RxCoreTestCase {
    /// Subject made at 100, subscribed to the hot source at 200; observers
    /// subscribe at 300, 400 and 900 and leave at 650, 600 and 950.
    private func runScenario(_ events: [Recorded<Event<Int>>]) -> (TestableObservable<Int>, [TestableObserver<Int>]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        var subject: AsyncSubject<Int>!
        var subscription: Disposable!
        let results = (0..<3).map { _ in scheduler.createObserver(Int.self) }
        var subscriptions: [Disposable?] = [nil, nil, nil]

        scheduler.scheduleAt(100) { subject = AsyncSubject() }
        scheduler.scheduleAt(200) { subscription = xs.subscribe(subject) }
        scheduler.scheduleAt(1000) { subscription.dispose() }
        scheduler.scheduleAt(300) { subscriptions[0] = subject.subscribe(results[0]) }
        scheduler.scheduleAt(400) { subscriptions[1] = subject.subscribe(results[1]) }
        scheduler.scheduleAt(900) { subscriptions[2] = subject.subscribe(results[2]) }
        scheduler.scheduleAt(600) { subscriptions[0]?.dispose() }
        scheduler.scheduleAt(700) { subscriptions[1]?.dispose() }
        scheduler.scheduleAt(950) { subscriptions[2]?.dispose() }
        scheduler.start()
        return (xs, results)
    }

    func testAsyncSubject_Infinite() {
        let (xs, results) = runScenario([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6), .next(520, 7),
        ])
        XCTAssertEqual(results[0].events, [])
        XCTAssertEqual(results[1].events, [])
        XCTAssertEqual(results[2].events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testAsyncSubject_Finite() {
        let (xs, results) = runScenario([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6), .next(520, 7),
            .completed(630), .next(640, 9), .completed(650),
        ])
        XCTAssertEqual(results[0].events, [])
        XCTAssertEqual(results[1].events, [.next(630, 7), .completed(630)])
        XCTAssertEqual(results[2].events, [.next(900, 7), .completed(900)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testAsyncSubject_Error() {
        let (_, results) = runScenario([
            .next(70, 1), .next(220, 3), .next(410, 6), .next(520, 7), .error(630, testError), .next(640, 9),
        ])
        XCTAssertEqual(results[0].events, [])
        XCTAssertEqual(results[1].events, [.error(630, testError)])
        XCTAssertEqual(results[2].events, [.error(900, testError)])
    }

    func testAsyncSubject_EmptyCompletes() {
        let (_, results) = runScenario([.next(70, 1), .completed(630)])
        XCTAssertEqual(results[1].events, [.completed(630)])
        XCTAssertEqual(results[2].events, [.completed(900)])
    }

    func testAsyncSubject_AllSubscribersGetTheElementBeforeCompleted() {
        let subject = AsyncSubject<Int>()
        var log: [String] = []
        let a = subject.subscribe { log.append("a \($0)") }
        let b = subject.subscribe { log.append("b \($0)") }
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, [])
        subject.onCompleted()
        XCTAssertEqual(log, ["a next(2)", "b next(2)", "a completed", "b completed"])
        XCTAssertFalse(subject.hasObservers)
        a.dispose()
        b.dispose()
    }

    func testAsyncSubject_UnsubscribeStopsDelivery() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        XCTAssertTrue(subject.hasObservers)
        subject.onNext(1)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onCompleted()
        XCTAssertEqual(events, [])
    }

    func testAsyncSubject_SendFromInsideTerminalIsIgnored() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { event in
            events.append(event)
            subject.onNext(99)
            subject.onError(testError)
        }
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(events, [.next(1), .completed])
        subscription.dispose()
    }

    func testAsyncSubject_ConcurrentSendersDeliverOnce() {
        let subject = AsyncSubject<Int>()
        let received = ManagedCounter()
        let completions = ManagedCounter()
        let subscription = subject.subscribe(onNext: { _ in received.increment() }, onCompleted: { completions.increment() })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 { subject.onNext(thread * 100 + value) }
            subject.onCompleted()
        }
        XCTAssertEqual(received.current, 1)
        XCTAssertEqual(completions.current, 1)
        subscription.dispose()
    }
}
