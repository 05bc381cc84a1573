import Dispatch
import RxCore
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
}
