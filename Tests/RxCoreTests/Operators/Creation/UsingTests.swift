import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// A resource that records the ticks it was created and disposed at.
///
/// A `Disposable` is `Sendable`; this one is only touched by the test
/// scheduler's thread, hence unchecked.
private final class TestResource: Disposable, @unchecked Sendable {
    private let scheduler: TestScheduler
    private(set) var ticks: [Int] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
        ticks.append(scheduler.clock)
    }

    func dispose() {
        ticks.append(scheduler.clock)
    }
}

/// A resource that runs a closure when disposed (on the test scheduler's
/// thread, hence unchecked).
private final class LoggingResource: Disposable, @unchecked Sendable {
    private let onDispose: () -> Void

    init(_ onDispose: @escaping () -> Void) {
        self.onDispose = onDispose
    }

    func dispose() {
        onDispose()
    }
}

final class UsingTests: RxCoreTestCase {
    func testUsing_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: TestResource!
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    resource = TestResource(scheduler: scheduler)
                    return resource
                }, observableFactory: { _ in Observable<Int>.never() })
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(resource.ticks, [200, 1000])
    }

    func testUsing_Complete() {
        let scheduler = TestScheduler(initialClock: 0)
        var resourceInvoked = 0
        var factoryInvoked = 0
        var xs: TestableObservable<Int>!
        var resource: TestResource!
        var received: TestResource?
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    resourceInvoked += 1
                    resource = TestResource(scheduler: scheduler)
                    return resource
                },
                observableFactory: { created in
                    factoryInvoked += 1
                    received = created
                    xs = scheduler.createColdObservable([
                        .next(100, scheduler.clock),
                        .completed(200),
                    ])
                    return xs.asObservable()
                })
        }
        XCTAssertTrue(received === resource)
        XCTAssertEqual(
            res.events,
            [
                .next(300, 200),
                .completed(400),
            ])
        XCTAssertEqual(resourceInvoked, 1)
        XCTAssertEqual(factoryInvoked, 1)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(resource.ticks, [200, 400])
    }

    func testUsing_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        var xs: TestableObservable<Int>!
        var resource: TestResource!
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    resource = TestResource(scheduler: scheduler)
                    return resource
                },
                observableFactory: { _ in
                    xs = scheduler.createColdObservable([
                        .next(100, scheduler.clock),
                        .error(200, testError),
                    ])
                    return xs.asObservable()
                })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 200),
                .error(400, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(resource.ticks, [200, 400])
    }

    func testUsing_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        var xs: TestableObservable<Int>!
        var resource: TestResource!
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    resource = TestResource(scheduler: scheduler)
                    return resource
                },
                observableFactory: { _ in
                    xs = scheduler.createColdObservable([
                        .next(100, scheduler.clock),
                        .next(1000, 1),
                    ])
                    return xs.asObservable()
                })
        }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 200)
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(resource.ticks, [200, 1000])
    }

    func testUsing_ThrowResourceFactory() {
        let scheduler = TestScheduler(initialClock: 0)
        var factoryInvoked = 0
        let res = scheduler.start {
            Observable<Int>.using(
                { () throws -> TestResource in
                    throw testError
                },
                observableFactory: { _ in
                    factoryInvoked += 1
                    return Observable<Int>.never()
                })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(factoryInvoked, 0)
    }

    func testUsing_ThrowObservableFactory() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: TestResource!
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> TestResource in
                    resource = TestResource(scheduler: scheduler)
                    return resource
                },
                observableFactory: { _ in
                    throw testError
                })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(resource.ticks, [200, 200])
    }

    func testUsing_InnerDisposedBeforeResource() {
        var log: [String] = []
        let subscription = Observable<Int>.using(
            {
                LoggingResource { log.append("resource") }
            },
            observableFactory: { _ in
                Observable<Int>.create { _ in
                    Disposables.create { log.append("inner") }
                }
            }
        ).subscribe()
        subscription.dispose()
        XCTAssertEqual(log, ["inner", "resource"])
    }
}
