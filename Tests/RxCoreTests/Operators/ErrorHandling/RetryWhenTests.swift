import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class RetryWhenTests: RxCoreTestCase {
    func testRetryWhen_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 1000)])
    }

    func testRetryWhen_SourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .completed(20),
        ])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .completed(220),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        // The trigger is subscribed before the source.
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 220)])
    }

    func testRetryWhen_TriggerResubscribesAfterEachError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let delay = scheduler.createColdObservable([
            .next(30, 0)
        ])
        var seen: [TestError] = []
        let res = scheduler.start(disposed: 390) {
            xs.retry(when: { (errors: Observable<TestError>) in
                errors.flatMap { error -> TestableObservable<Int> in
                    seen.append(error)
                    return delay
                }
            })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(260, 1),
                .next(310, 1),
                .next(360, 1),
            ])
        XCTAssertEqual(seen, [testError, testError, testError, testError])
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 220),
                Subscription(250, 270),
                Subscription(300, 320),
                Subscription(350, 370),
            ])
        XCTAssertEqual(
            delay.subscriptions,
            [
                Subscription(220, 390),
                Subscription(270, 390),
                Subscription(320, 390),
                Subscription(370, 390),
            ])
    }

    func testRetryWhen_TriggerErrorEndsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        var attempts = 0
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in
                errors.flatMap { error -> Observable<Int> in
                    attempts += 1
                    return attempts < 3 ? Observable.just(attempts) : Observable.error(testError2)
                }
            })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 1),
                .next(250, 1),
                .error(260, testError2),
            ])
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 220),
                Subscription(220, 240),
                Subscription(240, 260),
            ])
    }

    func testRetryWhen_TriggerCompletionCompletesResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let trigger = scheduler.createHotObservable([
            .next(250, 0),
            .completed(300),
        ])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(260, 1),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 270)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 300)])
    }

    func testRetryWhen_TriggerErrorFailsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let trigger = scheduler.createHotObservable([
            .next(250, 0),
            .error(300, testError2),
        ])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(260, 1),
                .error(300, testError2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 270)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 300)])
    }

    func testRetryWhen_TriggerEventsBeforeAnErrorAreIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(50, testError),
        ])
        let trigger = scheduler.createHotObservable([
            .next(220, 0),
            .next(270, 0),
        ])
        let res = scheduler.start(disposed: 300) { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(280, 1),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(270, 300)])
    }

    func testRetryWhen_TriggerCompletedBeforeErrorCompletesAtError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let trigger = scheduler.createHotObservable([
            .completed(215, Int.self)
        ])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .completed(220),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        // The trigger's own subscription ends when it completes.
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 215)])
    }

    func testRetryWhen_ErrorOfAnotherTypeIsEmittedAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, RxError.unknown),
        ])
        var handled = 0
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in
                errors.map { _ -> Int in
                    handled += 1
                    return 0
                }
            })
        }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(210, 1))
        XCTAssertEqual(res.events.last?.time, 220)
        XCTAssertEqual(res.events.last?.value.error as? RxError, RxError.unknown)
        XCTAssertEqual(handled, 0)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryWhen_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let trigger = scheduler.createHotObservable([
            .next(250, 0)
        ])
        let res = scheduler.start(disposed: 240) { xs.retry(when: { (_: Observable<Swift.Error>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 240)])
    }

    func testRetryWhen_SynchronousTriggerAndSource() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 1_000 {
                observer.onError(testError)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var received: [Int] = []
        var completed = false
        let subscription =
            source
            .retry(when: { (errors: Observable<Swift.Error>) in errors.map { _ in 0 } })
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [1_000])
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testRetryWhen_UnannotatedHandlerReceivesEveryError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, RxError.unknown),
        ])
        let res = scheduler.start(disposed: 245) { xs.retry(when: { errors in errors.map { _ in 0 } }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 1),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 245)])
    }

    func testRetryWhen_DisposeFromInsideOnNext() {
        let source = PublishSubject<Int>()
        let trigger = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription =
            source
            .retry(when: { (_: Observable<Swift.Error>) in trigger })
            .subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(trigger.hasObservers)
    }
}
