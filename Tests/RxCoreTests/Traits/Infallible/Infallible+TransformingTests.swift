import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleTransformingTests: RxCoreTestCase {
    func testCompactMap_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: "").compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompactMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .next(260, "2")])
        let res = scheduler.start(disposed: 250) { xs.asInfallible(onErrorJustReturn: "").compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScan_SeedAndInto() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).scan(10) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 11), .next(220, 13), .next(230, 16), .completed(300)])

        var values: [[Int]] = []
        _ = Infallible.from([1, 2]).scan(into: [Int]()) { $0.append($1) }.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [[1], [1, 2]])
    }

    func testScan_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 250) { xs.asInfallible(onErrorJustReturn: 0).scan(into: 0) { $0 += $1 } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
