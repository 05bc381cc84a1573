import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class FlatMapLatestTests: RxCoreTestCase {
    func testFlatMapLatest_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testFlatMapLatest_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMapLatest_DisposesOldInnerWhenNewOneArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(30, 12),
            .next(50, 13),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .next(20, 22),
            .completed(30),
        ])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(240, 12),
                .next(260, 21),
                .next(270, 22),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 280)])
    }

    func testFlatMapLatest_OldHotInnerIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .completed(400),
        ])
        let ys1 = scheduler.createHotObservable([
            .next(220, 11),
            .next(260, 12),
            .completed(270),
        ])
        let ys2 = scheduler.createHotObservable([
            .next(240, 20),
            .next(265, 21),
            .next(280, 22),
        ])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(265, 21),
                .next(280, 22),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 1000)])
    }

    func testFlatMapLatest_CompletesWhenOuterAndActiveInnerAreDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .completed(265),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .completed(100),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .next(20, 22),
            .completed(30),
        ])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(260, 21),
                .next(270, 22),
                .completed(280),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 265)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 280)])
    }

    func testFlatMapLatest_InnerCompletesThenOuterCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .completed(20),
        ])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapLatest_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(30, 12),
            .completed(60),
        ])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapLatest_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(260, 21),
                .error(270, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 270)])
    }

    func testFlatMapLatest_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(20, 12),
            .completed(60),
        ])
        let res = scheduler.start(disposed: 265) { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(230, 12),
                .next(260, 11),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 265)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250), Subscription(250, 265)])
    }

    func testFlatMapLatest_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .completed(300),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .completed(60),
        ])
        let res = scheduler.start {
            xs.flatMapLatest { value -> TestableObservable<Int> in
                if value == 2 { throw testError }
                return ys
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testFlatMapLatest_DisposeFromInsideOnNext() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = outer.flatMapLatest { _ in inner }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        outer.onNext(0)
        inner.onNext(1)
        inner.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(outer.hasObservers)
        XCTAssertFalse(inner.hasObservers)
    }

    func testSwitchLatest_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(30, 12),
            .next(50, 13),
            .completed(60),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .next(20, 22),
            .completed(30),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(250, ys2),
            .completed(300),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(240, 12),
                .next(260, 21),
                .next(270, 22),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 280)])
    }

    func testSwitchLatest_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>]())
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSwitchLatest_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .completed(300, Observable<Int>.self)
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSwitchLatest_OuterCompletesBeforeInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .completed(50),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .completed(220),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .completed(260),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 260)])
    }

    func testSwitchLatest_OuterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .completed(50),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testSwitchLatest_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .error(20, testError),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .completed(300),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testSwitchLatest_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([
            .next(10, 11),
            .next(40, 12),
            .completed(50),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 230) { xs.switchLatest() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }
}
