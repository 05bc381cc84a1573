import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CombineLatestCollectionTests: RxCoreTestCase {
    /// As RxSwift 6: an empty collection emits the result of no values, then completes.
    func testCombineLatestCollection_EmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.next(200, []), .completed(200)])
    }

    func testCombineLatestCollection_EmptyArraySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) { $0.count } }
        XCTAssertEqual(res.events, [.next(200, 0), .completed(200)])
    }

    func testCombineLatestCollection_EmptyArrayThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw testError }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testCombineLatestCollection_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatestCollection_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(220)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatestCollection_Symmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, [1, 2, 3]),
                .next(240, [1, 5, 3]),
                .next(250, [4, 5, 3]),
                .next(260, [4, 5, 6]),
                .completed(420),
            ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 400)])
    }

    func testCombineLatestCollection_Selector() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(220, 3), .next(240, 6), .next(250, 9), .completed(420)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
    }

    /// Any collection of sources works, not only arrays.
    func testCombineLatestCollection_OtherCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(300)])
        let sources = [e0, e1, e0][0..<2]
        let res = scheduler.start { Observable.combineLatest(sources) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .completed(300)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 300)])
    }

    func testCombineLatestCollection_CompletesWhenOthersAreDoneWithoutAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(240, 3), .completed(300)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) }
        XCTAssertEqual(res.events, [.completed(240)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 240)])
    }

    func testCombineLatestCollection_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .error(250, testError)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, [1, 2, 3]),
                .next(240, [1, 5, 3]),
                .error(250, testError),
            ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestCollection_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(260, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest([e0, e1]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2])])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestCollection_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(240, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(400)])
        let res = scheduler.start {
            Observable.combineLatest([e0, e1]) { values -> Int in
                if values[0] == 2 { throw testError }
                return values.reduce(0, +)
            }
        }
        XCTAssertEqual(res.events, [.next(220, 3), .error(240, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testCombineLatestCollection_SynchronousSources() {
        var events: [Event<[Int]>] = []
        _ = Observable.combineLatest([Observable.just(1), Observable.just(2), Observable.just(3)])
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next([1, 2, 3]), .completed])
    }
}
