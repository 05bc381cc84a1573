import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ScanTests: RxCoreTestCase {
    func testScan_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let res = scheduler.start { xs.scan(42, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testScan_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(250),
        ])
        let res = scheduler.start { xs.scan(42, accumulator: +) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScan_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .next(240, 5),
            .completed(250),
        ])
        let res = scheduler.start { xs.scan(42, accumulator: +) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 44),
                .next(220, 47),
                .next(230, 51),
                .next(240, 56),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScan_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .error(250, testError),
            .next(260, 3),
        ])
        let res = scheduler.start { xs.scan(42, accumulator: +) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 44),
                .error(250, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScan_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .completed(250),
        ])
        let res = scheduler.start(disposed: 225) { xs.scan(42, accumulator: +) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 44),
                .next(220, 47),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testScan_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .completed(250),
        ])
        let res = scheduler.start {
            xs.scan(42) { accumulated, element -> Int in
                if element == 4 { throw testError }
                return accumulated + element
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 44),
                .next(220, 47),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testScanInto_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .completed(250),
        ])
        let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) }.map { $0.count * 100 + ($0.last ?? 0) } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 102),
                .next(220, 203),
                .next(230, 304),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScanInto_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(250),
        ])
        let res = scheduler.start {
            xs.scan(into: 0) { accumulated, element in
                if element == 3 { throw testError }
                accumulated += element
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testScan_EachSubscriptionStartsFromSeed() {
        let source = Observable.of(1, 2, 3).scan(0, accumulator: +)
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [1, 3, 6])
        XCTAssertEqual(second, [1, 3, 6])
    }

    func testScan_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.scan(0, accumulator: +).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
