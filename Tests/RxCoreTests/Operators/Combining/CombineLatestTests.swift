import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class CombineLatestTests: RxCoreTestCase {
    func testCombineLatest_NeverNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatest_NeverEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 210)])
    }

    func testCombineLatest_EmptyNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatest_EmptyEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(220)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    /// A source emits while the other completed without a value: no result
    /// can ever come, so the result completes at that emission.
    func testCombineLatest_EmptyReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 215)])
    }

    func testCombineLatest_ReturnEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 210)])
    }

    /// A source that emits and completes before the other emitted does not
    /// end the result: the other may still emit.
    func testCombineLatest_ReturnNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatest_ReturnReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(240)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testCombineLatest_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([
            .next(150, 1), .next(210, 1), .next(230, 3), .next(250, 5), .completed(400),
        ])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 20), .next(240, 40), .completed(500),
        ])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 21),
                .next(230, 23),
                .next(240, 43),
                .next(250, 45),
                .completed(500),
            ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 500)])
    }

    /// After one source completed, its last value keeps combining with the other's.
    func testCombineLatest_ContinuesAfterOneCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(220)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(230, 10), .next(240, 20), .completed(250),
        ])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(230, 11), .next(240, 21), .completed(250)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatest_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(230, 3), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, "x"), .next(220, "a"), .next(240, "b"), .completed(310)])
        let res = scheduler.start {
            Observable.combineLatest(e0, e1).map { "\($0.0)\($0.1)" }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, "1a"),
                .next(230, "3a"),
                .next(240, "3b"),
                .completed(310),
            ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
    }

    func testCombineLatest_EmptyError() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatest_NeverError() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatest_ErrorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .error(220, testError1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(230, testError2)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, testError1)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatest_ErrorAfterValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .error(240, testError)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(250, 3), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 3), .error(240, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testCombineLatest_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(260, 3), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(270, 4), .completed(300)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 3)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatest_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(230, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(e0, e1) { a, b -> Int in
                if a == 2 { throw testError }
                return a + b
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .error(230, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatest_SynchronousSources() {
        var events: [Event<Int>] = []
        _ = Observable.combineLatest(Observable.just(1), Observable.just(2)) { $0 + $1 }
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(3), .completed])
    }

    func testCombineLatest_SynchronousErrorDisposesTheOtherSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2)])
        let res = scheduler.start { Observable.combineLatest(Observable<Int>.error(testError), e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 200)])
    }

    func testCombineLatest_DisposeFromInsideOnNext() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.combineLatest(s0, s1) { $0 + $1 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        s0.onNext(1)
        s1.onNext(10)
        s0.onNext(2)
        XCTAssertEqual(received, [11])
        XCTAssertFalse(s0.hasObservers)
        XCTAssertFalse(s1.hasObservers)
    }

    /// A source fed from inside the downstream's onNext: the new result is
    /// delivered after the current onNext returns, never nested inside it.
    func testCombineLatest_ReentrantEmissionIsSerialised() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = Observable.combineLatest(s0, s1) { $0 + $1 }.subscribe(onNext: { value in
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
        XCTAssertEqual(received, [11, 12, 22])
        XCTAssertEqual(maxDepth, 1)
        subscription.dispose()
    }

    /// Two threads feeding two subjects: downstream never sees overlapping
    /// calls, and the last result combines both final values.
    func testCombineLatest_ConcurrentSourcesAreSerialised() {
        let s0 = PublishSubject<Int>()
        let s1 = PublishSubject<Int>()
        let inside = ManagedCounter()
        var overlapped = false
        var results: [Int] = []
        let count = 2_000
        let subscription = Observable.combineLatest(s0, s1) { $0 * 10_000 + $1 }.subscribe(onNext: { value in
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
        XCTAssertEqual(results.last, count * 10_000 + count)
        // At least `count`: if one thread sends everything before the other
        // starts, only the second thread's values produce results.
        XCTAssertGreaterThanOrEqual(results.count, count)
        XCTAssertLessThanOrEqual(results.count, 2 * count - 1)
        subscription.dispose()
    }
}
