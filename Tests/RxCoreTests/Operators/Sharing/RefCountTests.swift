import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class RefCountTests: RxCoreTestCase {
    func testRefCount_ConnectsOnFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        let res = scheduler.start { xs.publish().refCount() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testRefCount_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.publish().refCount() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testRefCount_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError), .next(260, 2)])
        let res = scheduler.start { xs.publish().refCount() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testRefCount_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start(disposed: 230) { xs.publish().refCount() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testRefCount_DisconnectsWhenTheLastSubscriberLeaves() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5),
            .next(260, 6), .next(270, 7), .next(280, 8), .next(290, 9), .completed(300),
        ])
        let shared = xs.publish().refCount()
        let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
        var subscriptions: [Disposable?] = [nil, nil, nil, nil]
        let windows: [(TestTime, TestTime)] = [(215, 235), (225, 275), (255, 265), (285, 320)]
        for (index, window) in windows.enumerated() {
            scheduler.scheduleAt(window.0) { subscriptions[index] = shared.subscribe(observers[index]) }
            scheduler.scheduleAt(window.1) { subscriptions[index]?.dispose() }
        }
        scheduler.start()
        XCTAssertEqual(observers[0].events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(observers[1].events, [.next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6), .next(270, 7)])
        XCTAssertEqual(observers[2].events, [.next(260, 6)])
        XCTAssertEqual(observers[3].events, [.next(290, 9), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 275), Subscription(285, 300)])
    }

    func testRefCount_ReconnectsAfterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .error(220, testError), .next(310, 2), .next(320, 3),
        ])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
        scheduler.scheduleAt(300) { subscriptions.append(shared.subscribe(second)) }
        scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(second.events, [.next(310, 2), .next(320, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 400)])
    }

    func testRefCount_ReconnectsAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
        scheduler.scheduleAt(300) { subscriptions.append(shared.subscribe(second)) }
        scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    /// Subscribers that subscribe again from inside their terminal event
    /// reconnect at once, to a new subject and a new source subscription.
    private func runResubscribeFromTerminal(error: Bool) -> ([TestableObserver<Int>], [TestableObservable<Int>]) {
        let scheduler = TestScheduler(initialClock: 0)
        let terminal: (TestTime, Error) -> Recorded<Event<Int>> = { time, failure in
            error ? .error(time, failure) : .completed(time)
        }
        let sources = [
            scheduler.createColdObservable([.next(10, 1), terminal(20, testError)]),
            scheduler.createColdObservable([.next(10, 2), terminal(30, testError1)]),
            scheduler.createColdObservable([.next(10, 3), terminal(40, testError2)]),
        ]
        let shared = switchingSource(sources).multicast(makeSubject: { PublishSubject<Int>() }).refCount()
        let observers = (0..<3).map { _ in scheduler.createObserver(Int.self) }
        for (index, time) in [(0, 215), (1, 220)] {
            scheduler.scheduleAt(TestTime(time)) {
                _ = shared.subscribe { event in
                    observers[index].on(event)
                    if event.isStopEvent {
                        _ = shared.subscribe(observers[index])
                    }
                }
            }
        }
        scheduler.scheduleAt(400) { _ = shared.subscribe(observers[2]) }
        scheduler.start()
        return (observers, sources)
    }

    func testRefCount_ResubscribingFromInsideOnErrorReconnects() {
        let (observers, sources) = runResubscribeFromTerminal(error: true)
        for observer in observers[0...1] {
            XCTAssertEqual(observer.events, [.next(225, 1), .error(235, testError), .next(245, 2), .error(265, testError1)])
        }
        XCTAssertEqual(observers[2].events, [.next(410, 3), .error(440, testError2)])
        XCTAssertEqual(sources[0].subscriptions, [Subscription(215, 235)])
        XCTAssertEqual(sources[1].subscriptions, [Subscription(235, 265)])
        XCTAssertEqual(sources[2].subscriptions, [Subscription(400, 440)])
    }

    func testRefCount_ResubscribingFromInsideOnCompletedReconnects() {
        let (observers, sources) = runResubscribeFromTerminal(error: false)
        for observer in observers[0...1] {
            XCTAssertEqual(observer.events, [.next(225, 1), .completed(235), .next(245, 2), .completed(265)])
        }
        XCTAssertEqual(observers[2].events, [.next(410, 3), .completed(440)])
        XCTAssertEqual(sources[0].subscriptions, [Subscription(215, 235)])
        XCTAssertEqual(sources[1].subscriptions, [Subscription(235, 265)])
        XCTAssertEqual(sources[2].subscriptions, [Subscription(400, 440)])
    }

    func testRefCount_StoppedSubjectDoesNotConnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let subject = PublishSubject<Int>()
        subject.onError(testError)
        let res = scheduler.start { xs.multicast(subject).refCount() }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testRefCount_SynchronousSourceEverySubscriberReconnects() {
        let subscriptions = ManagedCounter()
        let source = Observable<Int>.create { observer in
            subscriptions.increment()
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }
        let shared = source.publish().refCount()
        var first: [Event<Int>] = []
        var second: [Event<Int>] = []
        _ = shared.subscribe { first.append($0) }
        _ = shared.subscribe { second.append($0) }
        XCTAssertEqual(first, [.next(1), .completed])
        XCTAssertEqual(second, [.next(1), .completed])
        XCTAssertEqual(subscriptions.current, 2)
    }

    func testRefCount_ConnectionCountFollowsSubscribers() {
        let connects = ManagedCounter()
        let disconnects = ManagedCounter()
        let source = Observable<Int>.create { _ in
            connects.increment()
            return Disposables.create { disconnects.increment() }
        }
        let shared = source.publish().refCount()
        let a = shared.subscribe { _ in }
        let b = shared.subscribe { _ in }
        XCTAssertEqual(connects.current, 1)
        a.dispose()
        a.dispose()
        XCTAssertEqual(disconnects.current, 0)
        b.dispose()
        XCTAssertEqual(disconnects.current, 1)
        let c = shared.subscribe { _ in }
        XCTAssertEqual(connects.current, 2)
        c.dispose()
        XCTAssertEqual(disconnects.current, 2)
    }

    func testRefCount_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        nonisolated(unsafe) let shared = subject.publish().refCount()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = shared.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testRefCount_ConcurrentSubscribeAndDispose() {
        let active = ManagedCounter()
        let source = Observable<Int>.create { _ in
            active.increment()
            return Disposables.create { active.decrement() }
        }
        nonisolated(unsafe) let shared = source.publish().refCount()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            for _ in 0..<50 {
                let subscription = shared.subscribe { _ in }
                XCTAssertLessThanOrEqual(active.current, 1)
                subscription.dispose()
            }
        }
        XCTAssertEqual(active.current, 0)
    }
}
