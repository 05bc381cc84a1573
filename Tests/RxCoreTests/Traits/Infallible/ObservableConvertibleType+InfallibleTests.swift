import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ObservableConvertibleTypeInfallibleTests: RxCoreTestCase {
    func testAsInfallibleJustReturn_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testAsInfallibleJustReturn_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, -1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsInfallibleJustReturn_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, testError)])
        let res = scheduler.start(disposed: 250) { xs.asInfallible(onErrorJustReturn: -1) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsInfallibleFallback_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = scheduler.createColdObservable([.next(10, 7), .completed(20)])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 7), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testAsInfallibleFallback_DisposeDisposesFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(220, testError)])
        let ys = scheduler.createColdObservable([.next(50, 7), .completed(50)])
        let res = scheduler.start(disposed: 240) { xs.asInfallible(onErrorFallbackTo: ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testAsInfallibleRecover_ReceivesError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(220, testError2)])
        var received: TestError?
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in
                received = error as? TestError
                return .just(5)
            })
        }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(220)])
        XCTAssertEqual(received, testError2)
    }

    func testAsInfallible_OnTraits() {
        var values: [Int] = []
        _ = Single<Int>.error(testError).asInfallible(onErrorJustReturn: 1).subscribe(onNext: { values.append($0) })
        _ = Maybe<Int>.error(testError).asInfallible(onErrorFallbackTo: .just(2)).subscribe(onNext: { values.append($0) })
        _ = Single.just(3).asInfallible(onErrorRecover: { _ in .just(0) }).subscribe(onNext: { values.append($0) })
        var completed = false
        _ = Completable.error(testError).asInfallible(onErrorFallbackTo: .empty()).subscribe(onCompleted: { completed = true })
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertTrue(completed)
    }
}
