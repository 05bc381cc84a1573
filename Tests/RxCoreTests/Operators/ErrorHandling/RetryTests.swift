import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class RetryTests: RxCoreTestCase {
    func testRetry_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testRetry_Completes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 1),
            .completed(100),
        ])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 1),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testRetry_ResubscribesAfterEachError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(50, 1),
            .next(100, 2),
            .error(150, testError),
        ])
        let res = scheduler.start(disposed: 900) { xs.retry() }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 1),
                .next(300, 2),
                .next(400, 1),
                .next(450, 2),
                .next(550, 1),
                .next(600, 2),
                .next(700, 1),
                .next(750, 2),
                .next(850, 1),
            ])
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 350),
                Subscription(350, 500),
                Subscription(500, 650),
                Subscription(650, 800),
                Subscription(800, 900),
            ])
    }

    func testRetry_HotSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(220, testError),
            .next(230, 2),
            .completed(240),
        ])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 2),
                .completed(240),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testRetryCount_ErrorAfterLastAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(5, 1),
            .next(10, 2),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1),
                .next(210, 2),
                .next(225, 1),
                .next(230, 2),
                .next(245, 1),
                .next(250, 2),
                .error(260, testError),
            ])
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 220),
                Subscription(220, 240),
                Subscription(240, 260),
            ])
    }

    func testRetryCount_CompletesOnSecondAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(220, testError),
            .next(230, 2),
            .completed(240),
        ])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 2),
                .completed(240),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testRetryCount_Zero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(5, 1),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.retry(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testRetryCount_One() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(5, 1),
            .error(20, testError),
        ])
        let res = scheduler.start { xs.retry(1) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryCount_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(5, 1),
            .error(20, testError),
        ])
        let res = scheduler.start(disposed: 231) { xs.retry(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1),
                .next(225, 1),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 231)])
    }

    func testRetryCount_TenThousandSynchronousFailures() {
        var subscribed = 0
        let source = Observable<Int>.create { observer in
            subscribed += 1
            observer.onError(testError)
            return Disposables.create()
        }
        var received: Swift.Error?
        let subscription = source.retry(10_000).subscribe(onError: { received = $0 })
        XCTAssertEqual(subscribed, 10_000)
        XCTAssertEqual(received as? TestError, testError)
        subscription.dispose()
    }

    func testRetry_SynchronousSourceSucceedsAfterFailures() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 5_000 {
                observer.onError(testError)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var received: [Int] = []
        var completed = false
        let subscription = source.retry().subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [5_000])
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testRetry_DisposeFromInsideOnNext() {
        let source = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = source.retry().subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(source.hasObservers)
    }
}
