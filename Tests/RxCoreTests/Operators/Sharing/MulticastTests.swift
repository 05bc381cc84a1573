import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class MulticastTests: RxCoreTestCase {
    private func hotSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>> = .completed(390)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4),
            .next(270, 5), .next(330, 6), .next(340, 7), terminal,
        ])
    }

    // MARK: multicast(_:selector:)

    func testMulticastSelector_Completed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .completed(390),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testMulticastSelector_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMulticastSelector_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMulticastSelector_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, terminal: .error(390, testError))
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .error(390, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testMulticastSelector_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start(disposed: 300) { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [.next(210, 3), .next(240, 4), .next(270, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMulticastSelector_SubjectSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw testError }, selector: { $0 })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testMulticastSelector_SelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw testError })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testMulticastSelector_TwoUsesShareOneSourceSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler)
        let res = scheduler.start {
            xs.multicast(
                { PublishSubject<Int>() },
                selector: { ys in
                    Observable.create { observer in
                        let tens = ys.map { $0 * 10 }.subscribe(onNext: { observer.onNext($0) })
                        let ones = ys.subscribe(observer)
                        return Disposables.create(tens, ones)
                    }
                })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 30), .next(210, 3), .next(240, 40), .next(240, 4), .next(270, 50), .next(270, 5),
                .next(330, 60), .next(330, 6), .next(340, 70), .next(340, 7), .completed(390),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testMulticastSelector_ReleasesResourcesOnCompleteAndError() {
        _ = Observable.just(1).multicast({ PublishSubject<Int>() }, selector: { $0 }).subscribe()
        _ = Observable<Int>.error(testError).multicast({ PublishSubject<Int>() }, selector: { $0 }).subscribe(onError: { _ in })
    }

    // MARK: publish

    func testPublish_Basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
            .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2), .next(450, 9), .next(520, 11),
            .next(560, 20), .completed(600),
        ])
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        var connection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.publish() }
        scheduler.scheduleAt(200) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduler.scheduleAt(300) { connection = ys.connect() }
        scheduler.scheduleAt(400) { connection?.dispose() }
        scheduler.scheduleAt(500) { connection = ys.connect() }
        scheduler.scheduleAt(550) { connection?.dispose() }
        scheduler.scheduleAt(650) { connection = ys.connect() }
        scheduler.scheduleAt(800) { connection?.dispose() }
        scheduler.start()
        // The disconnect at 400 drops the subject the subscriber was on.
        XCTAssertEqual(res.events, [.next(340, 8), .next(360, 5), .next(370, 6), .next(390, 7)])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 400), Subscription(500, 550), Subscription(650, 800)])
    }

    func testPublish_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(340, 8), .error(360, testError), .next(370, 6)])
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        var connection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.publish() }
        scheduler.scheduleAt(200) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(300) { connection = ys.connect() }
        scheduler.scheduleAt(800) { connection?.dispose() }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(340, 8), .error(360, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 360)])
    }

    // MARK: replay

    private func coldSource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createColdObservable([
            .next(10, 1), .next(20, 2), .next(30, 3), .next(40, 4), .next(50, 5), .next(60, 6), terminal,
        ])
    }

    /// Connects 400-520 and 650-700; subscribes at 445.
    private func runReplay(_ scheduler: TestScheduler, _ makeConnectable: @escaping () -> ConnectableObservable<Int>) -> TestableObserver<Int> {
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        var connection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = makeConnectable() }
        scheduler.scheduleAt(445) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduler.scheduleAt(400) { connection = ys.connect() }
        scheduler.scheduleAt(520) { connection?.dispose() }
        scheduler.scheduleAt(650) { connection = ys.connect() }
        scheduler.scheduleAt(700) { connection?.dispose() }
        scheduler.start()
        return res
    }

    func testReplay_Basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = coldSource(scheduler, terminal: .error(130, testError))
        let res = runReplay(scheduler) { xs.replay(2) }
        XCTAssertEqual(res.events, [.next(445, 3), .next(445, 4), .next(450, 5), .next(460, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(400, 520), Subscription(650, 700)])
    }

    func testReplay_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = coldSource(scheduler, terminal: .error(90, testError))
        let res = runReplay(scheduler) { xs.replay(2) }
        XCTAssertEqual(res.events, [.next(445, 3), .next(445, 4), .next(450, 5), .next(460, 6), .error(490, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
    }

    func testReplay_Completed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = coldSource(scheduler, terminal: .completed(90))
        let res = runReplay(scheduler) { xs.replay(1) }
        XCTAssertEqual(res.events, [.next(445, 4), .next(450, 5), .next(460, 6), .completed(490)])
        XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
    }

    func testReplayAll_Basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = coldSource(scheduler, terminal: .completed(90))
        let res = runReplay(scheduler) { xs.replayAll() }
        XCTAssertEqual(
            res.events,
            [
                .next(445, 1), .next(445, 2), .next(445, 3), .next(445, 4), .next(450, 5), .next(460, 6), .completed(490),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(400, 490), Subscription(650, 700)])
    }
}
