import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

private final class Owner {
    let name: String

    init(name: String) {
        self.name = name
    }
}

final class WithUnretainedTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(300)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            end,
        ])
    }

    func testWithUnretained_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let owner = Owner(name: "a")
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testWithUnretained_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let owner = Owner(name: "a")
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testWithUnretained_ObjectAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let owner = Owner(name: "a")
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [.next(210, "a2"), .next(220, "a3"), .next(230, "a4"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        withExtendedLifetime(owner) {}
    }

    func testWithUnretained_TupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let owner = Owner(name: "a")
        let res = scheduler.start {
            xs.withUnretained(owner).map { object, value in "\(object.name)\(value)" }
        }
        XCTAssertEqual(res.events, [.next(210, "a2"), .next(220, "a3"), .next(230, "a4"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        withExtendedLifetime(owner) {}
    }

    func testWithUnretained_CompletesWhenObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var owner: Owner? = Owner(name: "a")
        weak let weakOwner = owner
        let unretained = xs.withUnretained(owner!) { "\($0.name)\($1)" }
        scheduler.scheduleAt(215) { owner = nil }
        let res = scheduler.start { unretained }
        XCTAssertNil(weakOwner)
        XCTAssertEqual(res.events, [.next(210, "a2"), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testWithUnretained_DoesNotRetainObject() {
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner(name: "a")
        weak let weakOwner = owner
        var received: [Event<String>] = []
        let subscription = subject.withUnretained(owner!) { "\($0.name)\($1)" }.subscribe { received.append($0) }
        owner = nil
        XCTAssertNil(weakOwner)
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [.completed])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testWithUnretained_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(300, testError))
        let owner = Owner(name: "a")
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [.next(210, "a2"), .next(220, "a3"), .next(230, "a4"), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        withExtendedLifetime(owner) {}
    }

    func testWithUnretained_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let owner = Owner(name: "a")
        let res = scheduler.start(disposed: 225) { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [.next(210, "a2"), .next(220, "a3")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        withExtendedLifetime(owner) {}
    }

    func testWithUnretained_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        let owner = Owner(name: "a")
        var received: [String] = []
        var subscription: Disposable?
        subscription = subject.withUnretained(owner) { "\($0.name)\($1)" }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, ["a1"])
        XCTAssertFalse(subject.hasObservers)
        withExtendedLifetime(owner) {}
    }
}
