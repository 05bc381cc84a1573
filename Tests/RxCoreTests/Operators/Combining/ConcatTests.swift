import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ConcatTests: RxCoreTestCase {
    func testConcat_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .completed(30),
        ])
        let xs2 = scheduler.createColdObservable([
            .next(10, 3),
            .completed(20),
        ])
        let res = scheduler.start { Observable.concat(xs1.asObservable(), xs2.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(220, 2),
                .next(240, 3),
                .completed(250),
            ])
        // The second source is subscribed only when the first completed.
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(230, 250)])
    }

    func testConcat_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let xs2 = scheduler.createColdObservable([
            .completed(10, Int.self)
        ])
        let res = scheduler.start { Observable.concat([xs1.asObservable(), xs2.asObservable()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    func testConcat_EmptySources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([
            .completed(10, Int.self)
        ])
        let xs2 = scheduler.createColdObservable([
            .completed(20, Int.self)
        ])
        let res = scheduler.start { Observable.concat(xs1.asObservable(), xs2.asObservable()) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(210, 230)])
    }

    func testConcat_NoSourcesCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testConcat_ErrorStopsTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([
            .next(10, 1),
            .error(20, testError),
        ])
        let xs2 = scheduler.createColdObservable([
            .next(10, 3),
            .completed(20),
        ])
        let res = scheduler.start { Observable.concat(xs1.asObservable(), xs2.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .error(220, testError),
            ])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    func testConcat_ErrorInSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([
            .next(10, 1),
            .completed(20),
        ])
        let xs2 = scheduler.createColdObservable([
            .next(10, 3),
            .error(20, testError),
        ])
        let res = scheduler.start { xs1.concat(xs2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 3),
                .error(240, testError),
            ])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(220, 240)])
    }

    func testConcat_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([
            .next(10, 1),
            .completed(20),
        ])
        let xs2 = scheduler.createColdObservable([
            .next(10, 3),
            .next(30, 4),
            .completed(40),
        ])
        let res = scheduler.start(disposed: 240) { xs1.concat(xs2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(230, 3),
            ])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(220, 240)])
    }

    func testConcat_InstanceForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([
            .next(210, 1),
            .completed(230),
        ])
        let xs2 = scheduler.createHotObservable([
            .next(220, 2),
            .next(240, 3),
            .completed(250),
        ])
        let res = scheduler.start { xs1.concat(xs2) }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1),
                .next(240, 3),
                .completed(250),
            ])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(230, 250)])
    }

    func testConcat_SequenceForm() {
        let scheduler = TestScheduler(initialClock: 0)
        var made = 0
        let sources = AnySequence { () -> AnyIterator<Observable<Int>> in
            var index = 0
            return AnyIterator {
                index += 1
                guard index <= 3 else { return nil }
                made += 1
                return Observable.just(index)
            }
        }
        let res = scheduler.start { Observable.concat(sources) }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1),
                .next(200, 2),
                .next(200, 3),
                .completed(200),
            ])
        XCTAssertEqual(made, 3)
    }

    func testConcat_TenThousandSynchronousSources() {
        var received: [Int] = []
        var completed = false
        let subscription = Observable.concat((0..<10_000).map { Observable.just($0) })
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, Array(0..<10_000))
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testConcat_TenThousandSynchronousSourcesOnAnotherThread() {
        // Threads other than the main one have small stacks: recursion would overflow there first.
        let finished = DispatchSemaphore(value: 0)
        let count = ManagedCounter()
        let completed = ManagedCounter()
        DispatchQueue.global().async {
            let subscription = Observable.concat((0..<10_000).map { Observable.just($0).map { $0 + 1 } })
                .subscribe(onNext: { _ in count.increment() }, onCompleted: { completed.increment() })
            subscription.dispose()
            finished.signal()
        }
        finished.wait()
        XCTAssertEqual(count.current, 10_000)
        XCTAssertEqual(completed.current, 1)
    }

    func testConcat_LongLeftNestedChain() {
        var chain = Observable.just(0)
        for value in 1..<10_000 {
            chain = chain.concat(Observable.just(value))
        }
        var received: [Int] = []
        var completed = false
        let subscription = chain.subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, Array(0..<10_000))
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testConcat_LongRightNestedChain() {
        var chain = Observable.just(9_999)
        for value in (0..<9_999).reversed() {
            chain = Observable.just(value).concat(chain)
        }
        var received: [Int] = []
        let subscription = chain.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, Array(0..<10_000))
        subscription.dispose()
    }

    func testConcat_DisposeFromInsideOnNext() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.concat(first.asObservable(), second.asObservable()).subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription?.dispose() }
        })
        first.onNext(1)
        first.onCompleted()
        second.onNext(2)
        second.onNext(3)
        XCTAssertEqual(received, [1, 2])
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
    }

    func testConcat_DisposeWhileSynchronousSourcesRun() {
        let gate = PublishSubject<Int>()
        var made = 0
        // The gate, then 100 synchronous sources made lazily.
        let sources = AnySequence { () -> AnyIterator<Observable<Int>> in
            var index = -1
            return AnyIterator {
                defer { index += 1 }
                if index == -1 { return gate.asObservable() }
                guard index < 100 else { return nil }
                made += 1
                return Observable.just(index)
            }
        }
        var received: [Int] = []
        var subscription: Disposable?
        subscription = Observable.concat(sources)
            .subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription?.dispose() }
            })
        XCTAssertEqual(made, 0)
        // Completing the gate runs the synchronous sources in the move loop; disposing stops it.
        gate.onCompleted()
        XCTAssertEqual(received, [0, 1, 2])
        XCTAssertEqual(made, 3)
    }

    // MARK: concat() of an observable of observables

    func testConcatOuter_WaitsForPreviousInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .next(30, 12),
            .completed(40),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .completed(20),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(220, ys2),
            .completed(230),
        ])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .next(240, 12),
                .next(260, 21),
                .completed(270),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(250, 270)])
    }

    func testConcatOuter_EmptyAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([
            .completed(300, Observable<Int>.self)
        ])
        let never = scheduler.createHotObservable([Recorded<Event<Observable<Int>>>]())
        let emptyResult = scheduler.createObserver(Int.self)
        let neverResult = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(empty.concat().subscribe(emptyResult))
            subscriptions.append(never.concat().subscribe(neverResult))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(emptyResult.events, [.completed(300)])
        XCTAssertEqual(neverResult.events, [])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    func testConcatOuter_InnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 11),
            .error(20, testError),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 21),
            .completed(20),
        ])
        let xs = scheduler.createHotObservable([
            .next(210, ys1),
            .next(215, ys2),
            .completed(300),
        ])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 11),
                .error(230, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(ys2.subscriptions, [])
    }

    #if TRACE_RESOURCES
    // RxSwift's tail-recursion cases (Observable+ConcatTests): a concat whose
    // second source is the next concat, without end.

    /// Over a collection (its length known), the exhausted outer sequence
    /// is dropped before the nested one is taken: the stack never holds more
    /// than one.
    func testConcat_TailRecursionCollection() {
        maxTailRecursiveSinkStackSize = 0
        var elements: [Int] = []
        _ = generateCollection(0) { Observable.just($0, scheduler: CurrentThreadScheduler.instance) }
            .take(100)
            .subscribe(onNext: { elements.append($0) })
        XCTAssertEqual(elements, Array(0..<100))
        XCTAssertEqual(maxTailRecursiveSinkStackSize, 1)
    }

    /// Over a sequence (its length unknown), each nested sequence stays
    /// under the one before: the stack grows with the depth.
    func testConcat_TailRecursionSequence() {
        maxTailRecursiveSinkStackSize = 0
        var elements: [Int] = []
        _ = generateSequence(0) { Observable.just($0, scheduler: CurrentThreadScheduler.instance) }
            .take(100)
            .subscribe(onNext: { elements.append($0) })
        XCTAssertEqual(elements, Array(0..<100))
        XCTAssertGreaterThan(maxTailRecursiveSinkStackSize, 10)
    }

    /// A concat of plain sources nests nothing: the mark stays at 0, as in
    /// RxSwift.
    func testConcat_FlatConcatDoesNotNest() {
        maxTailRecursiveSinkStackSize = 0
        var elements: [Int] = []
        _ = Observable.concat([Observable.just(1), Observable.just(2)]).subscribe(onNext: { elements.append($0) })
        XCTAssertEqual(elements, [1, 2])
        XCTAssertEqual(maxTailRecursiveSinkStackSize, 0)
    }
    #endif
}

#if TRACE_RESOURCES
/// `concat` of `[generator(start), the same from start + 1]` as a collection.
private func generateCollection<T>(_ start: Int, _ generator: @escaping (Int) -> Observable<T>) -> Observable<T> {
    let all = [0, 1].lazy.map { i in i == 0 ? generator(start) : generateCollection(start + 1, generator) }
    return Observable.concat(all)
}

/// The same as a sequence whose length is unknown.
private func generateSequence<T>(_ start: Int, _ generator: @escaping (Int) -> Observable<T>) -> Observable<T> {
    let all = AnySequence([0, 1].lazy.map { i in i == 0 ? generator(start) : generateSequence(start + 1, generator) })
    return Observable.concat(all)
}
#endif
