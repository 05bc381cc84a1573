import Dispatch
import Foundation
import RxCore
import RxCoreTestSupport
import Synchronization
import XCTest

/// How a `Producer` subscription holds what the caller's closures capture:
/// released when the subscription ends, however it ends, even when a
/// closure captures the subscription's own disposable (the cycle case), and
/// whether it ended during `subscribe` (whose disposer the thread keeps for
/// its next subscription) or later.
final class ProducerTests: RxCoreTestCase {
    /// An object a subscriber's closure captures; `weak` references to it
    /// say whether the subscription still holds the closure.
    private final class Captured {}

    func testSubscriptionEndingDuringSubscribe_CapturingItsOwnDisposable_ReleasesEverything() {
        weak var probe: Captured?
        var received: [Int] = []
        do {
            let captured = Captured()
            probe = captured
            var subscription: Disposable?
            subscription = Observable.just(1).map { $0 * 2 }.subscribe(onNext: { value in
                // The closure holds the variable the subscription is stored in.
                _ = captured
                _ = subscription
                received.append(value)
            })
            XCTAssertNotNil(subscription)
            subscription?.dispose()
        }
        XCTAssertEqual(received, [2])
        XCTAssertNil(probe, "the ended subscription still holds its subscriber's closure")
    }

    func testSubscriptionEndingLater_CapturingItsOwnDisposable_ReleasesEverythingWhenDisposedInside() {
        weak var probe: Captured?
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        do {
            let captured = Captured()
            probe = captured
            var subscription: Disposable?
            subscription = subject.map { $0 + 1 }.subscribe(onNext: { value in
                _ = captured
                received.append(value)
                subscription?.dispose()
            })
            XCTAssertNotNil(probe)
            subject.onNext(1)
            subject.onNext(2)
        }
        XCTAssertEqual(received, [2])
        XCTAssertFalse(subject.hasObservers)
        XCTAssertNil(probe, "the disposed subscription still holds its subscriber's closure")
    }

    func testSubscriptionEndingLater_CapturingItsOwnDisposable_ReleasesEverythingWhenItCompletes() {
        weak var probe: Captured?
        let subject = PublishSubject<Int>()
        var completed = false
        do {
            let captured = Captured()
            probe = captured
            var subscription: Disposable?
            subscription = subject.filter { $0 > 0 }.subscribe(
                onNext: { _ in _ = subscription },
                onCompleted: {
                    _ = captured
                    completed = true
                })
            subject.onNext(1)
            subject.onCompleted()
            // The caller still holds the disposable; what it held is gone.
            XCTAssertNotNil(subscription)
        }
        XCTAssertTrue(completed)
        XCTAssertNil(probe, "the completed subscription still holds its subscriber's closure")
    }

    func testSynchronousSubscriptions_OneAfterAnother_EachDeliverEverything() {
        // Each subscription ends during subscribe and the next one takes over
        // its disposer: none may see another's state.
        let source = Observable.of(1, 2, 3).map { $0 * 10 }.filter { $0 != 20 }
        var received: [[Int]] = []
        for _ in 0..<1000 {
            var values: [Int] = []
            var completions = 0
            let subscription = source.subscribe(onNext: { values.append($0) }, onCompleted: { completions += 1 })
            subscription.dispose()
            XCTAssertEqual(completions, 1)
            received.append(values)
        }
        XCTAssertEqual(Set(received.map { $0 }), [[10, 30]])
    }

    func testSynchronousSubscriptionInsideAnother_DoesNotDisturbTheOuter() {
        // The inner subscription ends during the outer's delivery and leaves
        // its disposer to the thread; the outer, still running, keeps its own.
        let subject = PublishSubject<Int>()
        var inner: [Int] = []
        let outer = subject.map { $0 }.subscribe(onNext: { value in
            _ = Observable.just(value).map { $0 + 100 }.subscribe(onNext: { inner.append($0) })
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(inner, [101, 102])
        XCTAssertTrue(subject.hasObservers)
        outer.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testSynchronousSubscriptions_OnManyThreads_EachThreadKeepsItsOwnSpare() {
        let total = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            for _ in 0..<200 {
                _ = Observable.just(1).map { $0 + 1 }.subscribe(onNext: { value in
                    total.withLock { $0 += value }
                })
            }
        }
        // Threads that end release their spare with them.
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = Observable.just(1).map { $0 + 1 }.subscribe(onNext: { value in
                total.withLock { $0 += value }
            })
            finished.signal()
        }
        thread.start()
        finished.wait()
        XCTAssertEqual(total.withLock { $0 }, 64 * 200 * 2 + 2)
    }
}
