import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class BindTests: RxCoreTestCase {
    private var savedHandler: Hooks.DefaultErrorHandler?
    private let handled = SharingTestBox<[Error]>([])
    private var handledErrors: [Error] { handled.current }

    override func setUp() {
        super.setUp()
        savedHandler = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { [handled] _, error in handled.update { $0.append(error) } }
    }

    override func tearDown() {
        if let savedHandler { Hooks.defaultErrorHandler = savedHandler }
        savedHandler = nil
        super.tearDown()
    }

    /// Binds `xs` at 200 with `bind`, disposes at `disposed`.
    private func run(
        _ scheduler: TestScheduler,
        disposed: TestTime = 1000,
        bind: @escaping () -> Disposable
    ) {
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = bind() }
        scheduler.scheduleAt(disposed) { subscription?.dispose() }
        scheduler.start()
    }

    // MARK: observers

    func testBindToObservers_ForwardsEveryEventToEachObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        run(scheduler) { xs.bind(to: first, second) }
        XCTAssertEqual(first.events, [.next(210, 2), .next(220, 3), .completed(300)])
        XCTAssertEqual(second.events, [.next(210, 2), .next(220, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindToObservers_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let observer = scheduler.createObserver(Int.self)
        run(scheduler) { xs.bind(to: observer) }
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testBindToObservers_ForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError), .next(230, 3)])
        let observer = scheduler.createObserver(Int.self)
        run(scheduler) { xs.bind(to: observer) }
        XCTAssertEqual(observer.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertTrue(handledErrors.isEmpty)
    }

    func testBindToObservers_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let observer = scheduler.createObserver(Int.self)
        run(scheduler, disposed: 250) { xs.bind(to: observer) }
        XCTAssertEqual(observer.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testBindToObservers_OptionalObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let observer = scheduler.createObserver(Int?.self)
        run(scheduler) { xs.bind(to: observer) }
        XCTAssertEqual(observer.events, [.next(210, Optional(2)), .completed(300)])
    }

    func testBindToObservers_Subject() {
        let subject = PublishSubject<Int>()
        var received: [Event<Int>] = []
        let observation = subject.subscribe { received.append($0) }
        let binding = Observable.just(1).bind(to: subject)
        XCTAssertEqual(received, [.next(1), .completed])
        binding.dispose()
        observation.dispose()
    }

    // MARK: relays

    func testBindToPublishRelay_ForwardsOnlyElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let relay1 = PublishRelay<Int>()
        let relay2 = PublishRelay<Int>()
        let results1 = scheduler.createObserver(Int.self)
        let results2 = scheduler.createObserver(Int.self)
        let observations = [relay1.subscribe(results1), relay2.subscribe(results2)]
        run(scheduler) { xs.bind(to: relay1, relay2) }
        XCTAssertEqual(results1.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(results2.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        observations.forEach { $0.dispose() }
    }

    func testBindToPublishRelay_ErrorGoesToDefaultErrorHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError), .next(230, 3)])
        let relay = PublishRelay<Int>()
        let results = scheduler.createObserver(Int.self)
        let observation = relay.subscribe(results)
        run(scheduler) { xs.bind(to: relay) }
        XCTAssertEqual(results.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(handledErrors.count, 1)
        XCTAssertEqual((handledErrors.first as? RelayBindingError)?.error as? TestError, testError)
        // The relay itself did not stop.
        relay.accept(9)
        XCTAssertEqual(results.events.last?.value.element, 9)
        observation.dispose()
    }

    func testBindToPublishRelay_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3)])
        let relay = PublishRelay<Int>()
        let results = scheduler.createObserver(Int.self)
        let observation = relay.subscribe(results)
        run(scheduler, disposed: 250) { xs.bind(to: relay) }
        XCTAssertEqual(results.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        observation.dispose()
    }

    func testBindToOptionalPublishRelay() {
        let relay = PublishRelay<Int?>()
        var received: [Int?] = []
        let observation = relay.subscribe(onNext: { received.append($0) })
        _ = Observable.just(1).bind(to: relay)
        XCTAssertEqual(received, [1])
        observation.dispose()
    }

    func testBindToBehaviorRelay_SetsValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(300)])
        let relay = BehaviorRelay(value: 0)
        let other = BehaviorRelay(value: 0)
        let results = scheduler.createObserver(Int.self)
        let observation = relay.subscribe(results)
        run(scheduler) { xs.bind(to: relay, other) }
        XCTAssertEqual(results.events, [.next(0, 0), .next(210, 2), .next(220, 3)])
        XCTAssertEqual(relay.value, 3)
        XCTAssertEqual(other.value, 3)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        observation.dispose()
    }

    func testBindToBehaviorRelay_ErrorKeepsValue() {
        let relay = BehaviorRelay(value: 0)
        _ = Observable<Int>.error(testError).bind(to: relay)
        XCTAssertEqual(relay.value, 0)
        XCTAssertEqual(handledErrors.count, 1)
        relay.accept(1)
        XCTAssertEqual(relay.value, 1)
    }

    func testBindToOptionalBehaviorRelay() {
        let relay = BehaviorRelay<Int?>(value: nil)
        _ = Observable.just(4).bind(to: relay)
        XCTAssertEqual(relay.value, 4)
    }

    func testBindToReplayRelay() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let optionalRelay = ReplayRelay<Int?>.createUnbounded()
        _ = Observable.just(1).bind(to: relay)
        _ = Observable.just(2).bind(to: relay)
        _ = Observable.just(3).bind(to: relay)
        _ = Observable.just(5).bind(to: optionalRelay)
        var received: [Int] = []
        var receivedOptional: [Int?] = []
        let a = relay.subscribe(onNext: { received.append($0) })
        let b = optionalRelay.subscribe(onNext: { receivedOptional.append($0) })
        XCTAssertEqual(received, [2, 3])
        XCTAssertEqual(receivedOptional, [5])
        _ = Observable<Int>.error(testError).bind(to: relay)
        XCTAssertEqual(handledErrors.count, 1)
        a.dispose()
        b.dispose()
    }
}
