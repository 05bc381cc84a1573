import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PrimitiveSequenceUsingTests: RxCoreTestCase {
    func testUsing_ResourceLivesUntilSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        var resource: BooleanDisposable?
        var disposedAt: Int?
        let res = scheduler.start {
            Single<Int>.using(
                { () -> BooleanDisposable in
                    let created = BooleanDisposable()
                    resource = created
                    return created
                },
                primitiveSequenceFactory: { (_: BooleanDisposable) in
                    xs.asSingle().do(onDispose: { disposedAt = scheduler.clock })
                })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(disposedAt, 210)
        XCTAssertEqual(resource?.isDisposed, true)
    }

    func testUsing_FactoryThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: BooleanDisposable?
        let res = scheduler.start {
            Single<Int>.using(
                { () -> BooleanDisposable in
                    let created = BooleanDisposable()
                    resource = created
                    return created
                },
                primitiveSequenceFactory: { (_: BooleanDisposable) -> Single<Int> in
                    throw testError
                })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(resource?.isDisposed, true)
    }

    func testUsing_DisposeDisposesResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = scheduler.createColdObservable([.completed(50)])
        var resource: BooleanDisposable?
        let res = scheduler.start(disposed: 220) {
            Completable.using(
                { () -> BooleanDisposable in
                    let created = BooleanDisposable()
                    resource = created
                    return created
                }, primitiveSequenceFactory: { (_: BooleanDisposable) in xs.asCompletable() })
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(resource?.isDisposed, true)
    }
}
