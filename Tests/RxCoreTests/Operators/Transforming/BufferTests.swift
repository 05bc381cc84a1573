import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class BufferTests: RxCoreTestCase {
    private func basicSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(600)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0),
            .next(205, 1),
            .next(210, 2),
            .next(240, 3),
            .next(280, 4),
            .next(320, 5),
            .next(350, 6),
            .next(370, 7),
            .next(420, 8),
            .next(470, 9),
            end,
        ])
    }

    func testBuffer_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(300), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(500, []),
                .next(800, []),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testBuffer_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .completed(250),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(300), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(250, []),
                .completed(250),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testBuffer_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler)
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(240, [1, 2, 3]),
                .next(310, [4]),
                .next(370, [5, 6, 7]),
                .next(440, [8]),
                .next(510, [9]),
                .next(580, []),
                .next(600, []),
                .completed(600),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testBuffer_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler, end: .error(600, testError))
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(240, [1, 2, 3]),
                .next(310, [4]),
                .next(370, [5, 6, 7]),
                .next(440, [8]),
                .next(510, [9]),
                .next(580, []),
                .error(600, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testBuffer_ErrorDropsTheOpenBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .error(230, testError),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testBuffer_CompletionEmitsTheOpenBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(230, [1, 2]),
                .completed(230),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testBuffer_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler)
        let res = scheduler.start(disposed: 370) { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(240, [1, 2, 3]),
                .next(310, [4]),
                .next(370, [5, 6, 7]),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 370)])
    }

    func testBuffer_FullBufferRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(260, 3),
        ])
        // The buffer filled at 220 opens a window whose timer is due at 270, not 250.
        let res = scheduler.start(disposed: 300) { xs.buffer(timeSpan: .seconds(50), count: 2, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(220, [1, 2]),
                .next(270, [3]),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBuffer_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [[Int]] = []
        var subscription: Disposable?
        subscription = subject.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        scheduler.scheduleAt(10) {
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subject.onNext(4)
        }
        scheduler.start()
        XCTAssertEqual(received, [[1, 2]])
        XCTAssertFalse(subject.hasObservers)
    }

    func testBuffer_ReentrantElementsAreBufferedInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [[Int]] = []
        let subscription = subject.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            if value == [1, 2] {
                subject.onNext(3)
                subject.onNext(4)
            }
        })
        scheduler.scheduleAt(10) {
            subject.onNext(1)
            subject.onNext(2)
        }
        scheduler.scheduleAt(50) { subject.onCompleted() }
        scheduler.start()
        XCTAssertEqual(received, [[1, 2], [3, 4], []])
        subscription.dispose()
    }
}
