import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ZipTests: RxCoreTestCase {
    func testZip_NeverNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testZip_NeverEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(n, e) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
    }

    func testZip_EmptyNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(e, n) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
    }

    func testZip_EmptyEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(220)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    /// RxSwift 6's zip of 2...8 sources completes only when every source has
    /// completed: an element that can never be paired does not end it.
    func testZip_EmptyNonEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip(e, o) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
    }

    func testZip_NonEmptyEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip(o, e) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
    }

    func testZip_NeverNonEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip(n, o) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
    }

    func testZip_NonEmptyNonEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(240)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 240)])
    }

    /// Elements wait in per-source queues and pair by position.
    func testZip_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([
            .next(150, 1), .next(210, 1), .next(220, 2), .next(230, 3), .completed(260),
        ])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(240, 10), .next(250, 20), .next(270, 30), .completed(300),
        ])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(
            res.events,
            [
                .next(240, 11),
                .next(250, 22),
                .next(270, 33),
                .completed(300),
            ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 300)])
    }

    /// After a completed source's queue ran dry, further elements of the
    /// other source are dropped, and the result completes only with it.
    func testZip_WaitsForAllSourcesToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(220)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(230, 10), .next(240, 20), .next(250, 30), .completed(300),
        ])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(230, 11), .completed(300)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 300)])
    }

    func testZip_AllCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .next(220, 6), .completed(230)])
        let res = scheduler.start { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 10), .completed(230)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testZip_LeftCompletesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(215, 6), .completed(225)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 225)])
    }

    func testZip_RightCompletesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
        let res = scheduler.start { Observable.zip(o2, o1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(215, 6), .completed(225)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 225)])
    }

    func testZip_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(220, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, "x"), .next(230, "a"), .next(240, "b"), .completed(310)])
        let res = scheduler.start { Observable.zip(e0, e1).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(res.events, [.next(230, "1a"), .next(240, "2b"), .completed(310)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
    }

    func testZip_EmptyError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testZip_NeverError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testZip_ErrorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .error(230, testError1)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError2)])
        let res = scheduler.start { Observable.zip(o2, o1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError2)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testZip_SomeError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testZip_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(260, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 10), .next(270, 20), .completed(300)])
        let res = scheduler.start(disposed: 250) { Observable.zip(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testZip_LeftTriggersSelectorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(210, 4)])
        let res = scheduler.start { Observable.zip(o1, o2) { _, _ throws -> Int in throw testError } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testZip_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(220, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(230, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start {
            Observable.zip(e0, e1) { a, b -> Int in
                if a == 2 { throw testError }
                return a + b
            }
        }
        XCTAssertEqual(res.events, [.next(230, 11), .error(240, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testZip_SynchronousSources() {
        var events: [Event<Int>] = []
        _ = Observable.zip(Observable.just(1), Observable.just(2)) { $0 + $1 }
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(3), .completed])
    }

    func testZip_DisposeFromInsideOnNext() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.zip(s0, s1) { $0 + $1 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        s0.onNext(1)
        s0.onNext(2)
        s1.onNext(10)
        s1.onNext(20)
        XCTAssertEqual(received, [11])
        XCTAssertFalse(s0.hasObservers)
        XCTAssertFalse(s1.hasObservers)
    }

    func testZip_ReentrantEmissionIsSerialised() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = Observable.zip(s0, s1) { $0 + $1 }.subscribe(onNext: { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 11 {
                s0.onNext(2)
                s1.onNext(20)
            }
            depth -= 1
        })
        s0.onNext(1)
        s1.onNext(10)
        XCTAssertEqual(received, [11, 22])
        XCTAssertEqual(maxDepth, 1)
        subscription.dispose()
    }

    /// Two threads feeding two subjects: every pair arrives, in order, and
    /// downstream never sees overlapping calls.
    func testZip_ConcurrentSourcesAreSerialised() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        let inside = ManagedCounter()
        var overlapped = false
        var results: [Int] = []
        let count = 2_000
        let subscription = Observable.zip(s0, s1) { $0 * 10_000 + $1 }.subscribe(onNext: { value in
            if inside.increment() != 1 { overlapped = true }
            results.append(value)
            inside.decrement()
        })
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let subject = thread == 0 ? s0 : s1
            for value in 1...count {
                subject.onNext(value)
            }
        }
        XCTAssertFalse(overlapped)
        XCTAssertEqual(results, (1...count).map { $0 * 10_000 + $0 })
        subscription.dispose()
    }
}
