import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ObserveOnTests: RxCoreTestCase {
    // MARK: Virtual time

    func testObserveOn_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testObserveOn_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .completed(300),
        ])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(301)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testObserveOn_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(300),
        ])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(211, 2),
                .next(221, 3),
                .completed(301),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testObserveOn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .error(220, testError),
        ])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(211, 2),
                .error(221, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testObserveOn_QueuedEventsAreDeliveredOneStepApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(210, 2),
            .next(210, 3),
            .completed(210),
        ])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(211, 1),
                .next(212, 2),
                .next(213, 3),
                .completed(214),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testObserveOn_DisposeDropsQueuedEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .next(260, 3),
        ])
        let res = scheduler.start(disposed: 250) { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testObserveOn_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
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

    func testObserveOn_CurrentThreadSchedulerDeliversInOrder() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.observe(on: CurrentThreadScheduler.instance).subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                subject.onNext(2)
                received.append(-1)
            }
        })
        subject.onNext(1)
        XCTAssertEqual(received, [1, -1, 2])
        subscription.dispose()
    }

    // MARK: Dispatch queues

    func testObserveOn_SerialQueueDeliversOnTheQueueInOrder() {
        let key = DispatchSpecificKey<String>()
        let scheduler = SerialDispatchQueueScheduler(
            internalSerialQueueName: "rxcore.test.observeOn",
            serialQueueConfiguration: { queue in
                queue.setSpecific(key: key, value: "observeOn")
            })
        let subject = PublishSubject<Int>()
        let done = DispatchSemaphore(value: 0)
        var received: [Int] = []
        var allOnQueue = true
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                if DispatchQueue.getSpecific(key: key) != "observeOn" { allOnQueue = false }
                received.append(value)
            },
            onCompleted: { done.signal() }
        )
        for value in 0..<1000 {
            subject.onNext(value)
        }
        subject.onCompleted()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(received, Array(0..<1000))
        XCTAssertTrue(allOnQueue)
        subscription.dispose()
    }

    func testObserveOn_ConcurrentQueueDeliversSeriallyInOrder() {
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rxcore.test.concurrent", attributes: .concurrent))
        let subject = PublishSubject<Int>()
        let done = DispatchSemaphore(value: 0)
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        var received: [Int] = []
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                if inside.increment() != 1 { overlaps.increment() }
                received.append(value)
                inside.decrement()
            },
            onCompleted: { done.signal() }
        )
        for value in 0..<1000 {
            subject.onNext(value)
        }
        subject.onCompleted()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(received, Array(0..<1000))
        subscription.dispose()
    }

    func testObserveOn_SerialQueueDropsEventsQueuedBeforeDispose() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rxcore.test.observeOn.dispose")
        let gate = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        // Hold the queue so that the events below wait behind this work item.
        _ = scheduler.schedule(()) { _ in
            blocked.signal()
            gate.wait()
            return Disposables.create()
        }
        XCTAssertEqual(blocked.wait(timeout: .now() + 10), .success)
        let subject = PublishSubject<Int>()
        let received = ManagedCounter()
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { _ in received.increment() })
        subject.onNext(1)
        subject.onNext(2)
        subscription.dispose()
        gate.signal()
        let drained = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            drained.signal()
            return Disposables.create()
        }
        XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(received.current, 0)
    }

    #if TRACE_RESOURCES
    /// RxSwift's check that a serial dispatch queue takes its own path,
    /// through its counter: one per `observe(on:)` Observable alive, on a
    /// `SerialDispatchQueueScheduler` or the main scheduler, however often
    /// it is subscribed; none for other schedulers.
    func testObserveOnDispatchQueue_EnsureCorrectImplementationIsChosen() {
        let before = Resources.numberOfSerialDispatchQueueObservables
        let serial = SerialDispatchQueueScheduler(internalSerialQueueName: "testQueue1")
        withExtendedLifetime(Observable<Int>.never().observe(on: serial)) { observed in
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
            let first = observed.subscribe()
            let second = observed.subscribe()
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
            first.dispose()
            second.dispose()
            let main = (Observable.just(0).observe(on: MainScheduler.instance), Observable.just(0).observe(on: MainScheduler.asyncInstance))
            withExtendedLifetime(main) {
                XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 3)
                let others = (
                    Observable.just(0).observe(on: ConcurrentDispatchQueueScheduler(qos: .default)),
                    Observable.just(0).observe(on: CurrentThreadScheduler.instance)
                )
                withExtendedLifetime(others) {
                    XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 3)
                }
            }
        }
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before)
    }
    #endif
}
