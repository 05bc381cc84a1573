import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleUtilityTests: RxCoreTestCase {
    func testDo_Order() {
        var log: [String] = []
        _ = Infallible.from([1, 2])
            .do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        // `from` emits from the CurrentThreadScheduler trampoline, after the
        // subscription call has returned: onSubscribed comes first.
        XCTAssertEqual(
            log,
            [
                "onSubscribe", "onSubscribed", "onNext 1", "next 1", "afterNext 1", "onNext 2", "next 2", "afterNext 2",
                "onCompleted", "completed", "afterCompleted", "onDispose",
            ])
    }

    func testDo_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        var disposedAt: Int?
        let res = scheduler.start(disposed: 250) {
            xs.asInfallible(onErrorJustReturn: 0).do(onDispose: { disposedAt = scheduler.clock })
        }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(disposedAt, 250)
    }

    func testObserveOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .completed(231)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSubscribeOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start(disposed: 225) { xs.asInfallible(onErrorJustReturn: 0).subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 226)])
    }

    func testDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .completed(235)])
    }

    func testDelay_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start(disposed: 222) { xs.asInfallible(onErrorJustReturn: 0).delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 222)])
    }

    func testDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 250)])
    }

    func testDebug() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).debug("infallible") }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testShare_OneUpstreamSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.asInfallible(onErrorJustReturn: 0).share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.asObservable().subscribe(first)) }
        scheduler.scheduleAt(215) { subscriptions.append(shared.asObservable().subscribe(second)) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(215, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testWithUnretained() {
        final class Owner {
            let name = "o"
        }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var values: [String] = []
        var completed = false
        let subscription = subject.asInfallible(onErrorJustReturn: 0)
            .withUnretained(owner!)
            .subscribe(onNext: { values.append("\($0.0.name)\($0.1)") }, onCompleted: { completed = true })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        XCTAssertEqual(values, ["o1"])
        XCTAssertTrue(completed)
        subscription.dispose()

        let other = Owner()
        var mapped: [String] = []
        _ = Infallible.just(3).withUnretained(other) { "\($0.name)\($1)" }.subscribe(onNext: { mapped.append($0) })
        XCTAssertEqual(mapped, ["o3"])
    }
}
