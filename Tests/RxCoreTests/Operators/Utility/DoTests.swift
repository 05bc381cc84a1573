import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class DoTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(250)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            end,
        ])
    }

    func testDo_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        var calls = 0
        let res = scheduler.start { xs.do(onNext: { _ in calls += 1 }, onCompleted: { calls += 1 }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(calls, 0)
    }

    func testDo_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        var completed = 0
        let res = scheduler.start { xs.do(onCompleted: { completed += 1 }) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(completed, 1)
    }

    func testDo_SeesEveryValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var seen: [Int] = []
        var after: [Int] = []
        let res = scheduler.start { xs.do(onNext: { seen.append($0) }, afterNext: { after.append($0) }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(seen, [2, 3, 4])
        XCTAssertEqual(after, [2, 3, 4])
    }

    func testDo_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(250, testError))
        var errors: [TestError] = []
        var afterErrors = 0
        var completed = false
        let res = scheduler.start {
            xs.do(
                onError: { errors.append($0 as! TestError) },
                afterError: { _ in afterErrors += 1 },
                onCompleted: { completed = true }
            )
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(errors, [testError])
        XCTAssertEqual(afterErrors, 1)
        XCTAssertFalse(completed)
    }

    func testDo_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var disposed = 0
        let res = scheduler.start(disposed: 225) { xs.do(onDispose: { disposed += 1 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(disposed, 1)
    }

    func testDo_OnNextThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.do(onNext: { if $0 == 3 { throw testError } })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDo_AfterNextThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.do(afterNext: { if $0 == 3 { throw testError } })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDo_OnErrorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(250, testError))
        let res = scheduler.start { xs.do(onError: { _ in throw testError2 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .error(250, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDo_OnCompletedThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.do(onCompleted: { throw testError }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDo_AfterCompletedThrows_ErrorDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var afterCompleted = 0
        let res = scheduler.start {
            xs.do(afterCompleted: {
                afterCompleted += 1
                throw testError
            })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(afterCompleted, 1)
    }

    func testDo_AfterErrorThrows_ErrorDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(250, testError))
        let res = scheduler.start { xs.do(afterError: { _ in throw testError2 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDo_EventHookOrder() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription =
            subject
            .do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(
                onNext: { log.append("observer \($0)") },
                onCompleted: { log.append("observer completed") }
            )
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(
            log,
            [
                "onNext 1", "observer 1", "afterNext 1",
                "onCompleted", "observer completed", "afterCompleted", "onDispose",
            ])
        subscription.dispose()
        XCTAssertEqual(log.filter { $0 == "onDispose" }.count, 1)
    }

    func testDo_ErrorHookOrder() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        _ =
            subject
            .do(
                onError: { _ in log.append("onError") },
                afterError: { _ in log.append("afterError") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onError: { _ in log.append("observer error") })
        subject.onError(testError)
        XCTAssertEqual(log, ["onError", "observer error", "afterError", "onDispose"])
    }

    func testDo_LifecycleOrder_Asynchronous() {
        var log: [String] = []
        let scheduler = TestScheduler(initialClock: 0)
        _ = scheduler.start {
            Observable<Int>.create { observer in
                log.append("source subscribe")
                scheduler.scheduleAt(300) {
                    observer.onNext(0)
                    observer.onCompleted()
                }
                return Disposables.create { log.append("source dispose") }
            }
            .do(
                onNext: { _ in log.append("onNext") },
                onCompleted: { log.append("onCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
        }
        XCTAssertEqual(log, ["onSubscribe", "source subscribe", "onSubscribed", "onNext", "onCompleted", "source dispose", "onDispose"])
    }

    func testDo_LifecycleOrder_Synchronous() {
        var log: [String] = []
        _ = Observable<Int>.create { observer in
            log.append("source subscribe")
            observer.onNext(0)
            observer.onCompleted()
            return Disposables.create { log.append("source dispose") }
        }
        .do(
            onNext: { _ in log.append("onNext") },
            onCompleted: { log.append("onCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        .subscribe()
        XCTAssertEqual(log, ["onSubscribe", "source subscribe", "onNext", "onCompleted", "source dispose", "onSubscribed", "onDispose"])
    }

    func testDo_LifecycleOrder_Dispose() {
        var log: [String] = []
        Observable<Int>.create { observer in
            log.append("source subscribe")
            observer.onNext(0)
            return Disposables.create { log.append("source dispose") }
        }
        .do(
            onNext: { _ in log.append("onNext") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        .subscribe()
        .dispose()
        XCTAssertEqual(log, ["onSubscribe", "source subscribe", "onNext", "onSubscribed", "source dispose", "onDispose"])
    }

    func testDo_HooksRunPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var subscribes = 0
        var disposes = 0
        let observable = xs.do(onSubscribe: { subscribes += 1 }, onDispose: { disposes += 1 })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = observable.subscribe(first) }
        scheduler.scheduleAt(300) { _ = observable.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
        XCTAssertEqual(subscribes, 2)
        XCTAssertEqual(disposes, 2)
    }

    func testDo_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var afterNext: [Int] = []
        var disposes = 0
        var subscription: Disposable?
        subscription =
            subject
            .do(afterNext: { afterNext.append($0) }, onDispose: { disposes += 1 })
            .subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(afterNext, [1])
        XCTAssertEqual(disposes, 1)
        XCTAssertFalse(subject.hasObservers)
    }
}
