import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CatchTests: RxCoreTestCase {
    func testCatch_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        var handled = 0
        let res = scheduler.start {
            xs.asObservable().catch { _ in
                handled += 1
                return Observable.just(0)
            }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(handled, 0)
    }

    func testCatch_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.asObservable().catch { _ in Observable.just(0) } }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCatch_NoError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let ys = scheduler.createColdObservable([.next(10, 9), .completed(20)])
        let res = scheduler.start { xs.asObservable().catch { _ in ys.asObservable() } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testCatch_SwitchesToHandlersObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .error(230, testError),
            .next(240, 99),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 2),
            .completed(20),
        ])
        var caught: [TestError] = []
        let res = scheduler.start {
            xs.asObservable().catch { error in
                caught.append(error as! TestError)
                return ys.asObservable()
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 2),
                .completed(250),
            ])
        XCTAssertEqual(caught, [testError])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testCatch_HandlersObservableFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 2),
            .error(20, testError2),
        ])
        let res = scheduler.start { xs.asObservable().catch { _ in ys.asObservable() } }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 2),
                .error(250, testError2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testCatch_HandlerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let res = scheduler.start {
            xs.asObservable().catch { _ -> Observable<Int> in throw testError2 }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(230, testError2),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatch_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let ys = scheduler.createColdObservable([
            .next(10, 2),
            .completed(20),
        ])
        let res = scheduler.start(disposed: 235) { xs.asObservable().catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 235)])
    }

    func testCatch_DisposeBeforeError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let ys = scheduler.createColdObservable([.next(10, 2)])
        let res = scheduler.start(disposed: 220) { xs.asObservable().catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testCatch_DisposeFromInsideOnNext() {
        let source = PublishSubject<Int>()
        let replacement = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = source.catch { _ in replacement.asObservable() }.subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription?.dispose() }
        })
        source.onNext(1)
        source.onError(testError)
        replacement.onNext(2)
        replacement.onNext(3)
        XCTAssertEqual(received, [1, 2])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(replacement.hasObservers)
    }

    func testCatch_SourceFailingDuringItsSubscribe_IsDisposedAndTheReplacementKept() {
        // The source fails before its subscribe returns: what it returns is
        // disposed at once (the replacement is current by then), and the
        // replacement stays subscribed until the result is disposed.
        let replacement = PublishSubject<Int>()
        var sourceDisposed = 0
        var received: [Int] = []
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create { sourceDisposed += 1 }
        }
        let subscription = source.catch { _ in replacement.asObservable() }
            .subscribe(onNext: { received.append($0) })
        XCTAssertEqual(sourceDisposed, 1)
        XCTAssertTrue(replacement.hasObservers)
        replacement.onNext(2)
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
        XCTAssertFalse(replacement.hasObservers)
        XCTAssertEqual(sourceDisposed, 1)
    }

    func testCatch_TheFailedSubscriptionEndsAfterTheReplacementsSubscribe() {
        // RxSwift's order: the handler's observable is subscribed, then the
        // failed subscription is disposed.
        var order: [String] = []
        let source = PublishSubject<Int>()
        let subscription = source.do(onDispose: { order.append("source disposed") })
            .catch { _ in
                Observable<Int>.never().do(onSubscribed: { order.append("replacement subscribed") })
            }
            .subscribe()
        source.onError(testError)
        XCTAssertEqual(order, ["replacement subscribed", "source disposed"])
        subscription.dispose()
    }

    // MARK: catchAndReturn

    func testCatchAndReturn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.catchAndReturn(0) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 0),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchAndReturn_NoError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .completed(230),
        ])
        let res = scheduler.start { xs.catchAndReturn(0) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    // MARK: Observable.catch(sequence)

    func testCatchSequence_MovesToNextSourceOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let b = scheduler.createColdObservable([
            .next(10, 2),
            .error(20, testError2),
        ])
        let c = scheduler.createColdObservable([
            .next(10, 3),
            .completed(20),
        ])
        let d = scheduler.createColdObservable([
            .next(10, 4),
            .completed(20),
        ])
        let res = scheduler.start { Observable.catch([a, b, c, d].map { $0.asObservable() }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 2),
                .next(250, 3),
                .completed(260),
            ])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 260)])
        XCTAssertEqual(d.subscriptions, [])
    }

    func testCatchSequence_AllFailEmitsLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let b = scheduler.createColdObservable([
            .error(20, testError2, Int.self)
        ])
        let res = scheduler.start { Observable.catch([a, b].map { $0.asObservable() }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(240, testError2),
            ])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
    }

    func testCatchSequence_EmptySequenceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.catch([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testCatchSequence_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 1)])
        let b = scheduler.createColdObservable([.next(10, 2)])
        let res = scheduler.start { Observable.catch([a.asObservable(), b.asObservable()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(b.subscriptions, [])
    }

    func testCatchSequence_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let b = scheduler.createColdObservable([
            .next(10, 2),
            .next(30, 3),
        ])
        let res = scheduler.start(disposed: 240) { Observable.catch([a, b].map { $0.asObservable() }) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 2),
            ])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
    }

    func testCatchSequence_TenThousandSynchronousFailures() {
        let sources = (0..<10_000).map { _ in Observable<Int>.error(testError) } + [Observable.just(1)]
        var received: [Int] = []
        var completed = false
        let subscription = Observable.catch(sources)
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
        subscription.dispose()
    }
}
