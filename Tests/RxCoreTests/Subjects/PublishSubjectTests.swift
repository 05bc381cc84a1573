import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PublishSubjectTests: RxCoreTestCase {
    func testPublishSubject_SubscribersSeeOnlyLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1),
            .next(110, 2),
            .next(220, 3),
            .next(270, 4),
            .next(340, 5),
            .next(410, 6),
            .next(520, 7),
            .completed(630),
            .next(640, 9),
        ])
        var subject: PublishSubject<Int>!
        var subscription: Disposable!
        let results1 = scheduler.createObserver(Int.self)
        var subscription1: Disposable!
        let results2 = scheduler.createObserver(Int.self)
        var subscription2: Disposable!

        scheduler.scheduleAt(100) { subject = PublishSubject() }
        scheduler.scheduleAt(200) { subscription = xs.subscribe(subject) }
        scheduler.scheduleAt(1000) { subscription.dispose() }
        scheduler.scheduleAt(300) { subscription1 = subject.subscribe(results1) }
        scheduler.scheduleAt(400) { subscription2 = subject.subscribe(results2) }
        scheduler.scheduleAt(500) { subscription1.dispose() }
        scheduler.scheduleAt(700) { subscription2.dispose() }
        scheduler.start()

        XCTAssertEqual(results1.events, [.next(340, 5), .next(410, 6)])
        XCTAssertEqual(results2.events, [.next(410, 6), .next(520, 7), .completed(630)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testPublishSubject_LateSubscriberGetsTerminalEvent() {
        let subject = PublishSubject<Int>()
        subject.onError(testError)
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        XCTAssertEqual(events, [.error(testError)])
    }

    func testPublishSubject_DisposedSubjectRejectsSubscribers() {
        let subject = PublishSubject<Int>()
        subject.dispose()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.error as? RxError, RxError.disposed(object: "PublishSubject"))
        XCTAssertTrue(subject.isDisposed)
    }

    func testPublishSubject_ReentrantEmissionIsSerialised() {
        let subject = PublishSubject<Int>()
        var first: [Int] = []
        var second: [Int] = []
        let a = subject.subscribe(onNext: { value in
            first.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let b = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
        a.dispose()
        b.dispose()
    }

    func testPublishSubject_ConcurrentSendersNeverInterleave() {
        let subject = PublishSubject<Int>()
        let inside = ManagedCounter()
        var received = 0
        var overlapped = false
        let subscription = subject.subscribe(onNext: { _ in
            if inside.increment() != 1 { overlapped = true }
            received += 1
            inside.decrement()
        })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 {
                subject.onNext(thread * 100 + value)
            }
        }
        XCTAssertFalse(overlapped)
        XCTAssertEqual(received, 10_000)
        subscription.dispose()
    }

    func testPublishSubject_DisposeFromOtherThread() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subscription.dispose()
            done.signal()
        }
        done.wait()
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testPublishSubject_ObserverHoldingItsOwnDisposableDoesNotLeak() {
        let subject = PublishSubject<Int>()
        let holder = DisposableHolder()
        var received: [Int] = []
        holder.disposable = subject.subscribe(onNext: { value in
            received.append(value)
            holder.disposable?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testPublishSubject_ForgottenSubscriptionDoesNotKeepTheSubjectAlive() {
        weak var weakSubject: PublishSubject<Int>?
        var received: [Int] = []
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            _ = subject.subscribe(onNext: { received.append($0) })
            subject.onNext(1)
        }
        XCTAssertNil(weakSubject)
        XCTAssertEqual(received, [1])
    }
}

/// Holds a disposable that the observer closure itself captures.
private final class DisposableHolder {
    var disposable: Disposable?
}

final class PublishSubjectScalingTests: RxCoreTestCase {
    /// Subscribing and unsubscribing many observers between emissions stays
    /// correct: each emission reaches exactly the observers subscribed then.
    func testPublishSubject_ManySubscribersComeAndGoBetweenEmissions() {
        let subject = PublishSubject<Int>()
        var counts = [Int](repeating: 0, count: 10_000)
        var subscriptions: [Disposable] = []
        for index in 0..<10_000 {
            subscriptions.append(subject.subscribe(onNext: { _ in counts[index] += 1 }))
        }
        subject.onNext(1)
        for index in stride(from: 0, to: 10_000, by: 2) {
            subscriptions[index].dispose()
        }
        subject.onNext(2)
        XCTAssertEqual(counts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reduce(0, +), 5_000)
        XCTAssertEqual(counts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).reduce(0, +), 10_000)
        subscriptions.forEach { $0.dispose() }
        XCTAssertFalse(subject.hasObservers)
    }
}
