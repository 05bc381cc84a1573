import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleCreationTests: RxCoreTestCase {
    func testOf_OnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Infallible.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    func testOf_DisposeStopsEmission() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Infallible.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1)])
    }

    func testFrom_ArrayAndSequence() {
        var values: [Int] = []
        var completions = 0
        _ = Infallible.from([1, 2]).subscribe(onNext: { values.append($0) }, onCompleted: { completions += 1 })
        _ = Infallible.from(3...4).subscribe(onNext: { values.append($0) }, onCompleted: { completions += 1 })
        _ = Infallible.of(5).subscribe(onNext: { values.append($0) }, onCompleted: { completions += 1 })
        XCTAssertEqual(values, [1, 2, 3, 4, 5])
        XCTAssertEqual(completions, 3)
    }

    func testJust_OnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Infallible.just(7, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 7), .completed(202)])
    }

    func testInterval_UntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) { Infallible<Int>.interval(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
    }

    func testTimer_OneShotAndPeriodic() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Infallible<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 0), .completed(230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start(disposed: 245) { Infallible<Int>.timer(.seconds(30), period: .seconds(5), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(230, 0), .next(235, 1), .next(240, 2)])
    }
}
