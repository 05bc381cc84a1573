import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

private struct Item: Equatable {
    let name: String
    let number: Int
}

final class DistinctUntilChangedTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(215, 3),
            .next(220, 3),
            .next(225, 2),
            .next(230, 2),
            .next(235, 1),
            .next(240, 2),
            .completed(250),
        ])
    }

    func testDistinctUntilChanged_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDistinctUntilChanged_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_Equatable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(215, 3),
                .next(225, 2),
                .next(235, 1),
                .next(240, 2),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_AllSame() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 2),
            .next(230, 2),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_KeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.distinctUntilChanged { $0 % 2 } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(215, 3),
                .next(225, 2),
                .next(235, 1),
                .next(240, 2),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_KeySelectorConstant() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.distinctUntilChanged { _ in "same" } }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_Comparer_ComparesWithLastEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 1),
            .next(220, 2),
            .next(230, 3),
            .next(240, 4),
            .completed(250),
        ])
        var calls: [[Int]] = []
        // "Equal" when within 2 of the last emitted element.
        let res = scheduler.start {
            xs.distinctUntilChanged { (old: Int, new: Int) -> Bool in
                calls.append([old, new])
                return new - old < 2
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(250)])
        XCTAssertEqual(calls, [[1, 2], [1, 3], [3, 4]])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_KeySelectorAndComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "x"),
            .next(210, "a"),
            .next(220, "A"),
            .next(230, "b"),
            .next(240, "B"),
            .completed(250),
        ])
        let res = scheduler.start {
            xs.distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
        }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "b"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_KeyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Item(name: "a", number: 1)),
            .next(220, Item(name: "b", number: 1)),
            .next(230, Item(name: "c", number: 2)),
            .next(240, Item(name: "c", number: 2)),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.number) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Item(name: "a", number: 1)),
                .next(230, Item(name: "c", number: 2)),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChanged_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 2),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDistinctUntilChanged_KeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.distinctUntilChanged { value -> Int in
                if value == 3 { throw testError }
                return value
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testDistinctUntilChanged_ComparerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw testError }
        }
        // The first element is emitted without calling the comparer.
        XCTAssertEqual(res.events, [.next(210, 2), .error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testDistinctUntilChanged_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 222) { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 2), .next(215, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 222)])
    }

    func testDistinctUntilChanged_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.distinctUntilChanged().subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
