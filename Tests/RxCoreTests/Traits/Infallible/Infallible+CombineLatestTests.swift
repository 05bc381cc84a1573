import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleCombineLatestTests: RxCoreTestCase {
    func testCombineLatest_Latest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let res = scheduler.start {
            Infallible.combineLatest(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12), .next(240, 22), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatest_TupleAndArities() {
        var results: [Int] = []
        let i = Infallible.just(1)
        _ = Infallible.combineLatest(i, Infallible.just("a")).subscribe(onNext: { results.append($0.0) })
        _ = Infallible.combineLatest(i, i, i) { $0 + $1 + $2 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i) { $0 + $1 + $2 + $3 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i, i) { $0 + $1 + $2 + $3 + $4 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i, i, i) { $0 + $1 + $2 + $3 + $4 + $5 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i, i, i, i) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i, i, i, i, i) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onNext: { results.append($0) })
        _ = Infallible.combineLatest(i, i, i, i, i, i, i, i).subscribe(onNext: { results.append($0.0 + $0.7) })
        XCTAssertEqual(results, [1, 3, 4, 5, 6, 7, 8, 2])
    }

    func testCombineLatest_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let ys = scheduler.createHotObservable([.next(230, 10)])
        let res = scheduler.start(disposed: 250) {
            Infallible.combineLatest(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(230, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }
}
