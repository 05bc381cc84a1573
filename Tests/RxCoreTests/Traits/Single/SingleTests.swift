import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class SingleTests: RxCoreTestCase {
    func testSingle_CreateSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { observer in
                let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    observer(.success(2))
                    return Disposables.create()
                }
                return work
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
    }

    func testSingle_CreateFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.failure(testError))
                    observer(.success(2))
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testSingle_DisposeCancelsWork() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: Int?
        let res = scheduler.start(disposed: 205) {
            Single<Int>.create { observer in
                let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    return Disposables.create()
                }
                return Disposables.create {
                    disposedAt = scheduler.clock
                    work.dispose()
                }
            }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(disposedAt, 205)
    }

    func testSingle_SubscribeCallbacks() {
        var results: [String] = []
        _ = Single.just(5).subscribe(
            onSuccess: { results.append("success \($0)") },
            onFailure: { results.append("failure \($0)") },
            onDisposed: { results.append("disposed") }
        )
        _ = Single<Int>.error(testError).subscribe(
            onSuccess: { results.append("success \($0)") },
            onFailure: { _ in results.append("failure") },
            onDisposed: { results.append("disposed") }
        )
        XCTAssertEqual(results, ["success 5", "disposed", "failure", "disposed"])
    }

    func testSingle_SubscribeWithObjectPassesObject() {
        final class Owner {
            var values: [Int] = []
        }
        let owner = Owner()
        let subscription = Single.just(1).subscribe(with: owner, onSuccess: { owner, value in owner.values.append(value) })
        XCTAssertEqual(owner.values, [1])
        subscription.dispose()
    }

    func testSingle_SubscribeWithObjectStopsWhenObjectIsGone() {
        final class Owner {}
        var calls = 0
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        let subject = PublishSubject<Int>()
        let subscription = subject.asSingle().subscribe(with: owner!, onSuccess: { _, _ in calls += 1 }, onFailure: { _, _ in calls += 1 })
        owner = nil
        XCTAssertNil(weakOwner)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(calls, 0)
        subscription.dispose()
    }

    func testSingle_MapAndFilter() {
        var results: [String] = []
        _ = Single.just(2).map { $0 * 10 }.subscribe(onSuccess: { results.append("map \($0)") })
        _ = Single.just(2).filter { $0 > 5 }.subscribe(
            onSuccess: { results.append("kept \($0)") },
            onCompleted: { results.append("filtered out") }
        )
        _ = Single.just(2).map { _ -> Int in throw testError }.subscribe(onFailure: { _ in results.append("threw") })
        XCTAssertEqual(results, ["map 20", "filtered out", "threw"])
    }

    func testSingle_DeferredCreatesPerSubscription() {
        var created = 0
        let single = Single<Int>.deferred {
            created += 1
            return .just(created)
        }
        var values: [Int] = []
        _ = single.subscribe(onSuccess: { values.append($0) })
        _ = single.subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
    }

    func testSingle_DeferredThrows() {
        var failure: Error?
        _ = Single<Int>.deferred { throw testError }.subscribe(onFailure: { failure = $0 })
        XCTAssertEqual(failure as? TestError, testError)
    }

    func testSingle_NeverDoesNothing() {
        var called = false
        let subscription = Single<Int>.never().subscribe { _ in called = true }
        subscription.dispose()
        XCTAssertFalse(called)
    }

    func testSingle_AsMaybeAndAsCompletable() {
        var events: [String] = []
        _ = Single.just(1).asMaybe().subscribe(onSuccess: { events.append("maybe \($0)") })
        _ = Single.just(1).asCompletable().subscribe(onCompleted: { events.append("completed") })
        XCTAssertEqual(events, ["maybe 1", "completed"])
    }
}
