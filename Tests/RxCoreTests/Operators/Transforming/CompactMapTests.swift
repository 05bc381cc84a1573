import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CompactMapTests: RxCoreTestCase {
    private func evenHalf(_ value: Int) -> Int? {
        value % 2 == 0 ? value / 2 : nil
    }

    func testCompactMap_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 2)
        ])
        let res = scheduler.start { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testCompactMap_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 2),
            .completed(300),
        ])
        let res = scheduler.start { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompactMap_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 2),
            .next(210, 4),
            .next(220, 5),
            .next(230, 6),
            .next(240, 7),
            .completed(300),
        ])
        let res = scheduler.start { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(230, 3),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompactMap_AllNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 3),
            .completed(300),
        ])
        let res = scheduler.start { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompactMap_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 2),
            .next(210, 4),
            .error(220, testError),
            .next(230, 6),
        ])
        let res = scheduler.start { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testCompactMap_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 4),
            .next(220, 6),
            .next(290, 8),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.compactMap(self.evenHalf) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .next(220, 3),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCompactMap_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 4),
            .next(220, 5),
            .next(230, 6),
            .completed(300),
        ])
        let res = scheduler.start {
            xs.compactMap { value -> Int? in
                if value == 6 { throw testError }
                return self.evenHalf(value)
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 2),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCompactMap_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.compactMap(evenHalf).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(4)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
