import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SubscribeOnTests: RxCoreTestCase {
    // MARK: Virtual time

    func testSubscribeOn_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 1001)])
    }

    func testSubscribeOn_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testSubscribeOn_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(201, 2),
            .next(210, 3),
            .completed(300),
        ])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 3),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testSubscribeOn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .error(300, testError),
        ])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testSubscribeOn_SubscribeAndDisposeRunOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribedAt: Int?
        var disposedAt: Int?
        let res = scheduler.start {
            Observable<Int>.create { _ in
                subscribedAt = scheduler.clock
                return Disposables.create { disposedAt = scheduler.clock }
            }
            .subscribe(on: scheduler)
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(subscribedAt, 201)
        XCTAssertEqual(disposedAt, 1001)
    }

    func testSubscribeOn_DisposeBeforeSubscriptionCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(on: scheduler).subscribe(onNext: { _ in XCTFail("not subscribed") })
            subscription?.dispose()
        }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testSubscribeOn_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.subscribe(on: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) {
            subject.onNext(1)
            subject.onNext(2)
        }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: Dispatch queues

    func testSubscribeOn_SerialQueueSubscribesAndDisposesOnTheQueue() {
        let key = DispatchSpecificKey<String>()
        let scheduler = SerialDispatchQueueScheduler(
            internalSerialQueueName: "rxcore.test.subscribeOn",
            serialQueueConfiguration: { queue in
                queue.setSpecific(key: key, value: "subscribeOn")
            })
        let subscribed = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        var subscribedOnQueue = false
        var disposedOnQueue = false
        let source = Observable<Int>.create { observer in
            subscribedOnQueue = DispatchQueue.getSpecific(key: key) == "subscribeOn"
            observer.onNext(1)
            subscribed.signal()
            return Disposables.create {
                disposedOnQueue = DispatchQueue.getSpecific(key: key) == "subscribeOn"
                disposed.signal()
            }
        }
        let received = ManagedCounter()
        let subscription = source.subscribe(on: scheduler).subscribe(onNext: { _ in received.increment() })
        XCTAssertEqual(subscribed.wait(timeout: .now() + 10), .success)
        subscription.dispose()
        XCTAssertEqual(disposed.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(subscribedOnQueue)
        XCTAssertTrue(disposedOnQueue)
        XCTAssertEqual(received.current, 1)
    }
}
