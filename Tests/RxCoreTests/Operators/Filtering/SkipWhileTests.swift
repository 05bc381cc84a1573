import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SkipWhileTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .next(240, 1),
            .completed(250),
        ])
    }

    func testSkipWhile_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.skip(while: { $0 < 4 }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSkipWhile_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.skip(while: { $0 < 4 }) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSkipWhile_Some_PredicateNotReevaluated() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var calls = 0
        let res = scheduler.start {
            xs.skip(while: { value in
                calls += 1
                return value < 3
            })
        }
        XCTAssertEqual(res.events, [.next(220, 3), .next(230, 4), .next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(calls, 2)
    }

    func testSkipWhile_AllSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(while: { _ in true }) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSkipWhile_NoneSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(while: { _ in false }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSkipWhile_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 5),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.skip(while: { $0 < 4 }) }
        XCTAssertEqual(res.events, [.next(220, 5), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSkipWhile_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.skip(while: { value -> Bool in
                if value == 3 { throw testError }
                return true
            })
        }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSkipWhile_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 235) { xs.skip(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(220, 3), .next(230, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testSkipWhile_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.skip(while: { $0 < 2 }).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(received, [2])
        XCTAssertFalse(subject.hasObservers)
    }
}
