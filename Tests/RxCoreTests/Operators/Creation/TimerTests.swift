import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class TimerTests: RxCoreTestCase {
    func testInterval_Basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 0),
                .next(400, 1),
                .next(500, 2),
                .next(600, 3),
                .next(700, 4),
                .next(800, 5),
                .next(900, 6),
            ])
    }

    func testInterval_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 450) { Observable<Int64>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 0),
                .next(400, 1),
            ])
    }

    func testInterval_DisposeBeforeFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 299) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testInterval_Milliseconds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 210) { Observable<Int>.interval(.milliseconds(3000), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(203, 0),
                .next(206, 1),
                .next(209, 2),
            ])
    }

    func testInterval_WrapsAroundAtMax() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 459) { Observable<UInt8>.interval(.seconds(1), scheduler: scheduler) }
        XCTAssertEqual(res.events.count, 258)
        XCTAssertEqual(res.events[255], .next(456, 255))
        XCTAssertEqual(res.events[256], .next(457, 0))
        XCTAssertEqual(res.events[257], .next(458, 1))
    }

    func testInterval_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        var received: [Recorded<Int>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable<Int>.interval(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                received.append(Recorded(time: scheduler.clock, value: value))
                if value == 2 {
                    subscription?.dispose()
                }
            })
        }
        scheduler.start()
        XCTAssertEqual(
            received,
            [
                Recorded(time: 210, value: 0),
                Recorded(time: 220, value: 1),
                Recorded(time: 230, value: 2),
            ])
        subscription = nil
    }

    func testTimer_OneOff() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(500, 0),
                .completed(500),
            ])
    }

    func testTimer_OneOffZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .completed(201),
            ])
    }

    func testTimer_OneOffDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 499) { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testTimer_OneOffAfterDisposeTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(1000), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testTimer_Periodic() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 460) {
            Observable<Int>.timer(.seconds(100), period: .seconds(50), scheduler: scheduler)
        }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 0),
                .next(350, 1),
                .next(400, 2),
                .next(450, 3),
            ])
    }

    func testTimer_PeriodicDueTimeZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 230) {
            Observable<Int>.timer(.seconds(0), period: .seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(
            res.events,
            [
                .next(201, 0),
                .next(211, 1),
                .next(221, 2),
            ])
    }
}
