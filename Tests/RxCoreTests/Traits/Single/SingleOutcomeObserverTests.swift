@_spi(Bridge) import RxCore
import RxCoreTestSupport
import XCTest

/// A `Single`'s `subscribe` closures (`SingleOutcomeObserver`): the first
/// event is the outcome, whatever the raw sequence does after it.
final class SingleOutcomeObserverTests: RxCoreTestCase {
    func testTheFirstElementIsTheOutcome_LaterEventsAreIgnored() {
        let source = PublishSubject<Int>()
        var outcomes: [String] = []
        let subscription = Single<Int>(raw: source.asObservable()).subscribe(
            onSuccess: { outcomes.append("success \($0)") },
            onFailure: { _ in outcomes.append("failure") },
            onDisposed: { outcomes.append("disposed") })
        source.onNext(1)
        source.onNext(2)
        source.onError(testError)
        source.onCompleted()
        XCTAssertEqual(outcomes, ["success 1", "disposed"])
        subscription.dispose()
        XCTAssertEqual(outcomes, ["success 1", "disposed"])
    }

    func testACompletionWithNoElement_FailsWithNoElements() {
        var failure: Swift.Error?
        var results: [SingleEvent<Int>] = []
        _ = Single<Int>(raw: Observable<Int>.empty()).subscribe(onFailure: { failure = $0 })
        _ = Single<Int>(raw: Observable<Int>.empty()).subscribe { results.append($0) }
        XCTAssertEqual(failure as? RxError, RxError.noElements)
        XCTAssertEqual(results.count, 1)
        guard case .failure(let error)? = results.first else {
            return XCTFail("expected a failure, got \(results)")
        }
        XCTAssertEqual(error as? RxError, RxError.noElements)
    }

    func testAnErrorFirst_IsTheOutcome() {
        var results: [String] = []
        _ = Single<Int>(raw: Observable<Int>.error(testError).concat(Observable.just(1)))
            .subscribe { result in
                switch result {
                case .success(let value): results.append("success \(value)")
                case .failure(let error): results.append("failure \(error as? TestError == testError)")
                }
            }
        XCTAssertEqual(results, ["failure true"])
    }
}
