import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// Code written the way RxSwift 6 and RxTest code is written, compiled
/// against RxCore/RxTest with only the imports changed. Each test checks the
/// timeline or values that RxSwift documents for it.
final class RxSwiftCompatibilityTests: RxCoreTestCase {
    func testCompatibility_SearchStyleChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let queries = scheduler.createHotObservable([
            .next(210, "r"),
            .next(215, "rx"),
            .next(230, "rxs"),
            .next(260, "rxsw"),
            .next(265, "rxsw"),
            .completed(400),
        ])
        let res = scheduler.start {
            queries.asObservable()
                .debounce(.seconds(10), scheduler: scheduler)
                .distinctUntilChanged()
                .filter { $0.count >= 3 }
                .flatMapLatest { query in
                    Observable.just("results for \(query)")
                }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(240, "results for rxs"),
                .next(275, "results for rxsw"),
                .completed(400),
            ])
    }

    func testCompatibility_FormValidation() {
        let username = BehaviorRelay(value: "")
        let password = BehaviorRelay(value: "")
        let disposeBag = DisposeBag()
        var valid: [Bool] = []

        let usernameValid = username.map { $0.count >= 5 }.share(replay: 1)
        let passwordValid = password.map { $0.count >= 8 }.share(replay: 1)
        Observable.combineLatest(usernameValid, passwordValid) { $0 && $1 }
            .distinctUntilChanged()
            .subscribe(onNext: { valid.append($0) })
            .disposed(by: disposeBag)

        username.accept("swift")
        password.accept("12345678")
        password.accept("123")
        XCTAssertEqual(valid, [false, true, false])
    }

    func testCompatibility_DisposeBagAndSubjects() {
        var disposeBag = DisposeBag()
        let subject = PublishSubject<String>()
        var received: [String] = []
        subject
            .do(onNext: { received.append("do \($0)") })
            .subscribe(onNext: { received.append($0) })
            .disposed(by: disposeBag)
        subject.onNext("a")
        disposeBag = DisposeBag()
        subject.onNext("b")
        XCTAssertEqual(received, ["do a", "a"])
        XCTAssertFalse(subject.hasObservers)
    }

    func testCompatibility_ErrorRecoveryAndRetry() {
        var attempts = 0
        let flaky = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 3 {
                observer.onError(TestError.dummy)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var values: [Int] = []
        _ = flaky.retry(3).subscribe(onNext: { values.append($0) })
        _ = Observable<Int>.error(TestError.dummy).catchAndReturn(-1).subscribe(onNext: { values.append($0) })
        _ = Observable<Int>.error(TestError.dummy).catch { _ in .just(-2) }.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [3, -1, -2])
    }

    func testCompatibility_TraitsAndBinding() {
        let disposeBag = DisposeBag()
        let relay = PublishRelay<Int>()
        var seen: [Int] = []
        relay.subscribe(onNext: { seen.append($0) }).disposed(by: disposeBag)
        Observable.of(1, 2, 3).bind(to: relay).disposed(by: disposeBag)

        var single: Int?
        Single.just(4).map { $0 * 10 }.subscribe(onSuccess: { single = $0 }).disposed(by: disposeBag)
        var completed = false
        Completable.empty().andThen(Maybe.just(5)).subscribe(onSuccess: { seen.append($0) }).disposed(by: disposeBag)
        Observable.from([1, 2]).ignoreElements().asCompletable().subscribe(onCompleted: { completed = true }).disposed(by: disposeBag)

        XCTAssertEqual(seen, [1, 2, 3, 5])
        XCTAssertEqual(single, 40)
        XCTAssertTrue(completed)
    }

    func testCompatibility_MarbleTestWithColdObservableAndSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .error(30, TestError.dummy),
        ])
        let res = scheduler.start(disposed: 400) {
            xs.retry(2)
        }
        XCTAssertEqual(
            res.events,
            Recorded.events(
                .next(210, 1),
                .next(220, 2),
                .next(240, 1),
                .next(250, 2),
                .error(260, TestError.dummy)
            ))
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 230),
                Subscription(230, 260),
            ])
    }

    func testCompatibility_SchedulersAndInterval() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.interval(.seconds(100), scheduler: scheduler)
                .take(3)
                .map { $0 * 2 }
                .observe(on: scheduler)
        }
        XCTAssertEqual(
            res.events,
            [
                .next(301, 0),
                .next(401, 2),
                .next(501, 4),
                // observe(on:) delivers one queued event per scheduled run, so the
                // completion that arrived with the last element comes a tick later.
                .completed(502),
            ])
    }

    /// RxTest's overloads for the traits' events: a test of a Single, a
    /// Maybe or a Completable written for RxTest compiles and passes.
    func testCompatibility_TraitEventsCompareAsInRxTest() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 5), .completed(10)])
        let res = scheduler.start { source.asSingle().map { $0 * 2 }.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 10), .completed(210)])

        var singles: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { singles.append($0) }
        _ = Single<Int>.error(TestError.dummy).subscribe { singles.append($0) }
        XCTAssertEqual(singles, [.success(1), .failure(TestError.dummy)])

        var maybes: [MaybeEvent<Int>] = []
        _ = Maybe.just(2).subscribe { maybes.append($0) }
        _ = Maybe<Int>.empty().subscribe { maybes.append($0) }
        _ = Maybe<Int>.error(TestError.dummy).subscribe { maybes.append($0) }
        XCTAssertEqual(maybes, [.success(2), .completed, .error(TestError.dummy)])

        var completables: [CompletableEvent] = []
        _ = Completable.empty().subscribe { completables.append($0) }
        _ = Completable.error(TestError.dummy).subscribe { completables.append($0) }
        XCTAssertEqual(completables, [.completed, .error(TestError.dummy)])

        XCTAssertNotEqual(MaybeEvent.success(1), MaybeEvent.success(2))
        XCTAssertNotEqual(MaybeEvent<Int>.completed, MaybeEvent<Int>.error(TestError.dummy))
        XCTAssertNotEqual(CompletableEvent.completed, CompletableEvent.error(TestError.dummy))
    }

    /// RxSwift 6's spellings: `catch(sequence:)`, `skip(_:scheduler:)`,
    /// relays' `asInfallible()`, the `DisposeBag { … }` builder.
    func testCompatibility_OperatorSpellings() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.dummy)])
        let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let caught = scheduler.start { Observable.catch(sequence: [first.asObservable(), second.asObservable()]) }
        XCTAssertEqual(caught.events, [.next(210, 1), .next(230, 2), .completed(240)])

        let timed = TestScheduler(initialClock: 0)
        let xs = timed.createHotObservable([.next(205, 1), .next(220, 2), .next(225, 3), .completed(230)])
        let skipped = timed.start { xs.skip(.seconds(15), scheduler: timed) }
        XCTAssertEqual(skipped.events, [.next(220, 2), .next(225, 3), .completed(230)])

        var seen: [Int] = []
        let behavior = BehaviorRelay(value: 1)
        let publish = PublishRelay<Int>()
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        replay.accept(10)
        let bag = DisposeBag {
            behavior.asInfallible().subscribe(onNext: { seen.append($0) })
            publish.asInfallible().subscribe(onNext: { seen.append($0) })
            replay.asInfallible().subscribe(onNext: { seen.append($0) })
        }
        behavior.accept(2)
        publish.accept(3)
        replay.accept(11)
        XCTAssertEqual(seen, [1, 10, 2, 3, 11])
        _ = bag
    }

    func testCompatibility_DisposeBagBuilder_DisposesWhatItLists() {
        var disposed = 0
        var bag: DisposeBag? = DisposeBag {
            Disposables.create { disposed += 1 }
            Disposables.create { disposed += 1 }
        }
        XCTAssertNotNil(bag)
        bag = nil
        XCTAssertEqual(disposed, 2)
    }

    #if TRACE_RESOURCES
    /// The debug counters RxSwift exposes beside `Resources.total`, counted
    /// as RxSwift counts them.
    func testCompatibility_ResourcesDebugSurface() {
        let before = Resources.numberOfSerialDispatchQueueObservables
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        withExtendedLifetime(Observable<Int>.never().observe(on: scheduler)) { observed in
            // One per Observable, however often it is subscribed.
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
            let first = observed.subscribe()
            let second = observed.subscribe()
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
            first.dispose()
            second.dispose()
        }
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before)

        // The global RxSwift's tests reset: a concat of a concat holds two
        // sources on the stack; a flat concat nests nothing.
        maxTailRecursiveSinkStackSize = 0
        var count = 0
        _ = Observable.concat([Observable.just(1), Observable.just(2)]).subscribe(onNext: { _ in count += 1 })
        XCTAssertEqual(maxTailRecursiveSinkStackSize, 0)
        let inner = Observable.concat([Observable.just(1), Observable.just(2)])
        _ = Observable.concat([inner, Observable.just(3)]).subscribe(onNext: { _ in count += 1 })
        XCTAssertEqual(count, 5)
        XCTAssertEqual(maxTailRecursiveSinkStackSize, 2)
        XCTAssertEqual(Resources.maxTailRecursiveSinkStackSize, 2)
    }
    #endif
}
