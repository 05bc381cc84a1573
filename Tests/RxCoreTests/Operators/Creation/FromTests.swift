import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class FromTests: RxCoreTestCase {
    func testOf_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(3, 1, 2, 4, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 3),
                .next(202, 1),
                .next(203, 2),
                .next(204, 4),
                .completed(205),
            ])
    }

    func testOf_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.of(scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testOf_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.of(3, 1, 2, 4, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 3),
                .next(202, 1),
            ])
    }

    func testOf_DefaultSchedulerIsSynchronous() {
        var events: [Event<Int>] = []
        _ = Observable.of(1, 2, 3).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
    }

    func testOf_DisposeFromInsideOnNext() {
        nonisolated(unsafe) var received: [Int] = []
        nonisolated(unsafe) var completed = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            var subscription: Disposable?
            subscription = Observable.of(1, 2, 3).subscribe(
                onNext: { value in
                    received.append(value)
                    subscription?.dispose()
                },
                onCompleted: {
                    completed = true
                })
            return Disposables.create()
        }
        XCTAssertEqual(received, [1])
        XCTAssertFalse(completed)
    }

    func testFromArray_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from([3, 1, 2, 4], scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 3),
                .next(202, 1),
                .next(203, 2),
                .next(204, 4),
                .completed(205),
            ])
    }

    func testFromArray_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from([], scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testFromArray_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.from([3, 1, 2, 4], scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 3)])
    }

    func testFromArray_DefaultSchedulerIsSynchronous() {
        var events: [Event<String>] = []
        _ = Observable.from(["a", "b"]).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next("a"), .next("b"), .completed])
    }

    func testFromSequence_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(stride(from: 10, to: 40, by: 10), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 10),
                .next(202, 20),
                .next(203, 30),
                .completed(204),
            ])
    }

    func testFromSequence_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(0..<0, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testFromSequence_IteratedAnewPerSubscription() {
        let source = Observable.from(1...3)
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [1, 2, 3])
        XCTAssertEqual(second, [1, 2, 3])
    }

    func testFromSequence_DisposeStopsIteration() {
        var pulled = 0
        let numbers = AnySequence { () -> AnyIterator<Int> in
            var next = 0
            return AnyIterator {
                pulled += 1
                next += 1
                return next
            }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.from(numbers, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 1),
                .next(202, 2),
                .next(203, 3),
            ])
        XCTAssertEqual(pulled, 3)
    }

    func testFrom_LongSequenceOnCurrentThreadDoesNotOverflowTheStack() {
        var count = 0
        var completed = false
        _ = Observable.from(Array(0..<100_000)).subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        XCTAssertEqual(count, 100_000)
        XCTAssertTrue(completed)
    }

    func testFromOptional_Some() {
        var events: [Event<Int>] = []
        _ = Observable.from(optional: 1).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed])
    }

    func testFromOptional_None() {
        var events: [Event<Int>] = []
        _ = Observable<Int>.from(optional: nil).subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
    }

    func testFromOptional_SomeOnTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from(optional: 1) }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
    }

    func testFromOptionalScheduled_Some() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(optional: 1, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 1),
                .completed(202),
            ])
    }

    func testFromOptionalScheduled_None() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from(optional: nil, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testFromOptionalScheduled_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 201) { Observable.from(optional: 1, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testFromOptionalScheduled_DisposeAfterElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.from(optional: 1, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1)])
    }
}
