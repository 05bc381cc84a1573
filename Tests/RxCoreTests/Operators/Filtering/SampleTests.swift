import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SampleTests: RxCoreTestCase {
    func testSample_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(250, "a"),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testSample_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(350, "a"),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.completed(350)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 350)])
    }

    func testSample_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .next(290, 4),
            .next(300, 5),
            .next(310, 6),
            .completed(350),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(210, "bar"),
            .next(250, "foo"),
            .next(260, "qux"),
            .next(320, "baz"),
            .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 3),
                .next(320, 6),
                .completed(500),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testSample_SourceCompletionWaitsForNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .next(290, 4),
            .next(300, 5),
            .next(310, 6),
            .completed(330),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(210, "bar"),
            .next(250, "foo"),
            .next(260, "qux"),
            .next(320, "baz"),
            .next(500, "quux"),
            .completed(600),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 3),
                .next(320, 6),
                .completed(500),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 330)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testSample_SamplerCompletionTakesALastSample() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .completed(600),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(230, "bar"),
            .completed(300),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, 2),
                .next(300, 3),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testSample_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .next(290, 4),
            .error(320, testError),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(210, "bar"),
            .next(250, "foo"),
            .next(260, "qux"),
            .next(300, "baz"),
            .completed(400),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 3),
                .next(300, 4),
                .error(320, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testSample_SamplerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .next(290, 4),
            .next(300, 5),
            .next(310, 6),
            .completed(400),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(210, "bar"),
            .next(250, "foo"),
            .next(260, "qux"),
            .error(320, testError),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, 3),
                .error(320, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testSample_DefaultValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .completed(350),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(210, "a"),
            .next(250, "b"),
            .next(260, "c"),
            .next(400, "d"),
        ])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 0),
                .next(250, 3),
                .next(260, 0),
                .next(400, 0),
                .completed(400),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 400)])
    }

    func testSample_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 2),
            .next(240, 3),
            .completed(600),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""),
            .next(230, "a"),
            .next(250, "b"),
            .next(350, "c"),
        ])
        let res = scheduler.start(disposed: 300) { xs.sample(ys) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, 2),
                .next(250, 3),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testSample_DisposeFromInsideOnNext() {
        let source = PublishSubject<Int>()
        let sampler = PublishSubject<Void>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = source.sample(sampler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        source.onNext(1)
        sampler.onNext(())
        source.onNext(2)
        sampler.onNext(())
        XCTAssertEqual(received, [1])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(sampler.hasObservers)
    }

    func testSample_ReentrantSourceErrorIsDeliveredAfterTheCurrentElement() {
        let source = PublishSubject<Int>()
        let sampler = PublishSubject<Void>()
        var received: [String] = []
        let subscription = source.sample(sampler).subscribe(
            onNext: { value in
                received.append("start \(value)")
                source.onError(testError)
                received.append("end \(value)")
            },
            onError: { _ in received.append("error") }
        )
        source.onNext(1)
        sampler.onNext(())
        XCTAssertEqual(received, ["start 1", "end 1", "error"])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(sampler.hasObservers)
        subscription.dispose()
    }
}
