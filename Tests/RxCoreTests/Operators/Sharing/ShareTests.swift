import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ShareTests: RxCoreTestCase {
    private func hotSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4),
            .next(250, 5), .next(260, 6), .completed(300),
        ])
    }

    /// o1 205-235, o2 225-245, o3 255-1000, o4 350-1000.
    private func runSubscribers(_ scheduler: TestScheduler, _ shared: Observable<Int>) -> [TestableObserver<Int>] {
        let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
        var subscriptions: [Disposable?] = [nil, nil, nil, nil]
        let windows: [(TestTime, TestTime)] = [(205, 235), (225, 245), (255, 1000), (350, 1000)]
        for (index, window) in windows.enumerated() {
            scheduler.scheduleAt(window.0) { subscriptions[index] = shared.subscribe(observers[index]) }
            scheduler.scheduleAt(window.1) { subscriptions[index]?.dispose() }
        }
        scheduler.start()
        return observers
    }

    // MARK: basics, every form

    private let allForms: [(replay: Int, scope: SubjectLifetimeScope)] = [
        (0, .whileConnected), (1, .whileConnected), (2, .whileConnected), (0, .forever), (1, .forever), (2, .forever),
    ]

    func testShare_Never() {
        for form in allForms {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.share(replay: form.replay, scope: form.scope) }
            XCTAssertEqual(res.events, [], "\(form)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)], "\(form)")
        }
    }

    func testShare_Empty() {
        for form in allForms {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.share(replay: form.replay, scope: form.scope) }
            XCTAssertEqual(res.events, [.completed(250)], "\(form)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)], "\(form)")
        }
    }

    func testShare_Values() {
        for form in allForms {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
            let res = scheduler.start { xs.share(replay: form.replay, scope: form.scope) }
            XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(250)], "\(form)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)], "\(form)")
        }
    }

    func testShare_Error() {
        for form in allForms {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError), .next(230, 3)])
            let res = scheduler.start { xs.share(replay: form.replay, scope: form.scope) }
            XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)], "\(form)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], "\(form)")
        }
    }

    func testShare_Dispose() {
        for form in allForms {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.share(replay: form.replay, scope: form.scope) }
            XCTAssertEqual(res.events, [.next(210, 2)], "\(form)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)], "\(form)")
        }
    }

    // MARK: .whileConnected

    func testShare_Replay0WhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let observers = runSubscribers(scheduler, xs.share())
        XCTAssertEqual(observers[0].events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(observers[1].events, [.next(230, 3), .next(240, 4)])
        XCTAssertEqual(observers[2].events, [.next(260, 6), .completed(300)])
        // After completion a new subscriber connects again (to a hot source that has ended).
        XCTAssertEqual(observers[3].events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 300), Subscription(350, 1000)])
    }

    func testShare_Replay1WhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let observers = runSubscribers(scheduler, xs.share(replay: 1))
        XCTAssertEqual(observers[0].events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(observers[1].events, [.next(225, 2), .next(230, 3), .next(240, 4)])
        // A new connection starts with an empty buffer.
        XCTAssertEqual(observers[2].events, [.next(260, 6), .completed(300)])
        XCTAssertEqual(observers[3].events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 300), Subscription(350, 1000)])
    }

    func testShare_Replay2WhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let observers = runSubscribers(scheduler, xs.share(replay: 2))
        XCTAssertEqual(observers[0].events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(observers[1].events, [.next(225, 1), .next(225, 2), .next(230, 3), .next(240, 4)])
        XCTAssertEqual(observers[2].events, [.next(260, 6), .completed(300)])
        XCTAssertEqual(observers[3].events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 300), Subscription(350, 1000)])
    }

    // MARK: .forever

    func testShare_Replay0Forever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let observers = runSubscribers(scheduler, xs.share(replay: 0, scope: .forever))
        XCTAssertEqual(observers[0].events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(observers[1].events, [.next(230, 3), .next(240, 4)])
        XCTAssertEqual(observers[2].events, [.next(260, 6), .completed(300)])
        // The one subject has completed: the late subscriber gets its terminal event.
        XCTAssertEqual(observers[3].events, [.completed(350)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 300)])
    }

    func testShare_Replay2Forever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let observers = runSubscribers(scheduler, xs.share(replay: 2, scope: .forever))
        XCTAssertEqual(observers[1].events, [.next(225, 1), .next(225, 2), .next(230, 3), .next(240, 4)])
        // The buffer outlives the first connection.
        XCTAssertEqual(observers[2].events, [.next(255, 3), .next(255, 4), .next(260, 6), .completed(300)])
        XCTAssertEqual(observers[3].events, [.next(350, 4), .next(350, 6), .completed(350)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 300)])
    }

    // MARK: re-subscribing from inside onError

    /// Subscribes at 200; the first error re-subscribes `res` from inside onError.
    private func runResubscribeOnError(replay: Int, scope: SubjectLifetimeScope) -> (TestableObserver<Int>, TestableObservable<Int>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let shared = xs.share(replay: replay, scope: scope)
        let res = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(
                shared.subscribe { event in
                    res.on(event)
                    if event.error != nil {
                        subscriptions.append(shared.subscribe(res))
                    }
                })
        }
        scheduler.scheduleAt(1000) {
            subscriptions.forEach { $0.dispose() }
            // The first subscription's closure captures this array: break the cycle.
            subscriptions.removeAll()
        }
        scheduler.start()
        return (res, xs)
    }

    func testShare_WhileConnectedResubscribeFromInsideOnErrorReconnects() {
        for replay in 0...2 {
            let (res, xs) = runResubscribeOnError(replay: replay, scope: .whileConnected)
            // A new source subscription, and no replay from the ended connection.
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError), .next(230, 1), .error(240, testError)], "replay \(replay)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)], "replay \(replay)")
        }
    }

    func testShare_ForeverResubscribeFromInsideOnErrorReplaysTheError() {
        let (res0, xs0) = runResubscribeOnError(replay: 0, scope: .forever)
        XCTAssertEqual(res0.events, [.next(210, 1), .error(220, testError), .error(220, testError)])
        XCTAssertEqual(xs0.subscriptions, [Subscription(200, 220)])

        let (res1, xs1) = runResubscribeOnError(replay: 1, scope: .forever)
        XCTAssertEqual(res1.events, [.next(210, 1), .error(220, testError), .next(220, 1), .error(220, testError)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
    }

    // MARK: edge cases

    func testShare_SynchronousSource() {
        for form in allForms {
            let subscriptions = ManagedCounter()
            let source = Observable<Int>.create { observer in
                subscriptions.increment()
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create()
            }
            let shared = source.share(replay: form.replay, scope: form.scope)
            var first: [Event<Int>] = []
            var second: [Event<Int>] = []
            _ = shared.subscribe { first.append($0) }
            _ = shared.subscribe { second.append($0) }
            XCTAssertEqual(first, [.next(1), .completed], "\(form)")
            switch form.scope {
            case .whileConnected:
                XCTAssertEqual(second, [.next(1), .completed], "\(form)")
                XCTAssertEqual(subscriptions.current, 2, "\(form)")
            case .forever:
                XCTAssertEqual(second, form.replay == 0 ? [.completed] : [.next(1), .completed], "\(form)")
                XCTAssertEqual(subscriptions.current, 1, "\(form)")
            }
        }
    }

    func testShare_DisposeFromInsideOnNext() {
        for form in allForms {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: form.replay, scope: form.scope)
            var received: [Int] = []
            var subscription: Disposable?
            subscription = shared.subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(received, [1], "\(form)")
            XCTAssertFalse(subject.hasObservers, "\(form)")
        }
    }

    func testShare_SubscribeFromInsideOnNextGetsTheReplayFirst() {
        let subject = PublishSubject<Int>()
        nonisolated(unsafe) let shared = subject.share(replay: 1)
        var inner: [Int] = []
        var innerSubscription: Disposable?
        let outer = shared.subscribe(onNext: { value in
            if innerSubscription == nil {
                innerSubscription = shared.subscribe(onNext: { inner.append($0) })
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(inner, [1, 2])
        outer.dispose()
        innerSubscription?.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testShare_ConcurrentSubscribersWithReplay1SeeContiguousRuns() {
        let subject = PublishSubject<Int>()
        // Subscribed from 50 threads at once: the point of the test, which
        // the type system cannot check (an Observable is not Sendable).
        nonisolated(unsafe) let shared = subject.share(replay: 1)
        let keepAlive = shared.subscribe { _ in }
        subject.onNext(0)
        let count = 2_000
        final class Log: @unchecked Sendable { var values: [Int] = [] }
        let logs = (0..<50).map { _ in Log() }
        let subscriptions = SharingTestBox<[Disposable?]>(Array(repeating: nil, count: 50))
        DispatchQueue.concurrentPerform(iterations: 51) { index in
            if index == 50 {
                for value in 1...count { subject.onNext(value) }
            } else {
                let log = logs[index]
                let subscription = shared.subscribe(onNext: { log.values.append($0) })
                subscriptions.update { $0[index] = subscription }
            }
        }
        for log in logs {
            XCTAssertEqual(log.values, Array((log.values.first ?? 0)...count))
        }
        subscriptions.update { $0.forEach { $0?.dispose() } }
        keepAlive.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testShare_ConcurrentSubscribeAndDispose() {
        for form in allForms {
            let active = ManagedCounter()
            let source = Observable<Int>.create { _ in
                active.increment()
                return Disposables.create { active.decrement() }
            }
            nonisolated(unsafe) let shared = source.share(replay: form.replay, scope: form.scope)
            DispatchQueue.concurrentPerform(iterations: 100) { _ in
                for _ in 0..<50 {
                    let subscription = shared.subscribe { _ in }
                    subscription.dispose()
                }
            }
            XCTAssertEqual(active.current, 0, "\(form)")
        }
    }
}
