import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ZipCollectionTests: RxCoreTestCase {
    func testZipCollection_EmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testZipCollection_EmptyArraySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip([Observable<Int>]()) { $0.count } }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testZipCollection_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.zip([e0, e1]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testZipCollection_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(220)])
        let res = scheduler.start { Observable.zip([e0, e1]) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testZipCollection_Symmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(420)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 400)])
    }

    func testZipCollection_Selector() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let res = scheduler.start { Observable.zip([e0, e1]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(220, 3), .next(250, 9), .completed(420)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
    }

    /// Unlike zip of 2...8 sources, RxSwift's zip over a collection completes
    /// as soon as a source emits while a queue is empty and every other
    /// source has completed.
    func testZipCollection_Asymmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
        ])
        let e2 = scheduler.createHotObservable([
            .next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300),
        ])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(310)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 300)])
    }

    func testZipCollection_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .error(250, testError)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .error(250, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 250)])
    }

    func testZipCollection_AtLeastOneErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(400)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .error(230, testError)])
        let e3 = scheduler.createHotObservable([.next(150, 1), .next(240, 4), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2, e3]) { _ in 42 } }
        XCTAssertEqual(res.events, [.error(230, testError)])
        for source in [e0, e1, e2, e3] {
            XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
        }
    }

    func testZipCollection_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(260, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(270, 5), .completed(230)])
        let res = scheduler.start(disposed: 250) { Observable.zip([e0, e1]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2])])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testZipCollection_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(215, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 3), .completed(400)])
        let res = scheduler.start {
            Observable.zip([e0, e1]) { values -> Int in
                if values[0] == 2 { throw testError }
                return values.reduce(0, +)
            }
        }
        XCTAssertEqual(res.events, [.next(220, 3), .error(240, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testZipCollection_SynchronousSources() {
        var events: [Event<[Int]>] = []
        _ = Observable.zip([Observable.just(1), Observable.just(2), Observable.just(3)])
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next([1, 2, 3]), .completed])
    }
}
