import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SwitchIfEmptyTests: RxCoreTestCase {
    func testSwitchIfEmpty_SourceNotEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(205, 1),
            .completed(210),
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .completed(50),
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1),
                .completed(210),
            ])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testSwitchIfEmpty_SourceEmptyOtherCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([
            .completed(200, Int.self)
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .next(20, 1),
            .next(30, 2),
            .next(40, 3),
            .completed(50),
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(410, 0),
                .next(420, 1),
                .next(430, 2),
                .next(440, 3),
                .completed(450),
            ])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(other.subscriptions, [Subscription(400, 450)])
    }

    func testSwitchIfEmpty_SourceEmptyOtherEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([
            .completed(100, Int.self)
        ])
        let other = scheduler.createColdObservable([
            .completed(50, Int.self)
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [.completed(350)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(300, 350)])
    }

    func testSwitchIfEmpty_SourceEmptyOtherErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([
            .completed(200, Int.self)
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .error(50, testError),
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(
            res.events,
            [
                .next(410, 0),
                .error(450, testError),
            ])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(other.subscriptions, [Subscription(400, 450)])
    }

    func testSwitchIfEmpty_SourceErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .error(210, testError, Int.self)
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .completed(50),
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testSwitchIfEmpty_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(150, 1)
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .completed(50),
        ])
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testSwitchIfEmpty_DisposeWhileSwitched() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .completed(210, Int.self)
        ])
        let other = scheduler.createColdObservable([
            .next(10, 0),
            .next(100, 1),
            .completed(200),
        ])
        let res = scheduler.start(disposed: 250) { source.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [.next(220, 0)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(other.subscriptions, [Subscription(210, 250)])
    }
}
