import Dispatch
import RxBlocking
import RxCore
import RxCoreTestSupport
import XCTest

/// RxBlocking's operators, tested as RxSwift's suite tests them.
final class BlockingObservableTests: RxCoreTestCase {
    private enum TestError: Error, Equatable {
        case dummy
    }

    private let backgroundScheduler = ConcurrentDispatchQueueScheduler(qos: .default)

    // MARK: toArray

    func testToArray_empty() throws {
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
    }

    func testToArray_return() throws {
        XCTAssertEqual(try Observable.just(42).toBlocking().toArray(), [42])
    }

    func testToArray_fail() {
        XCTAssertThrowsError(try Observable<Int>.error(TestError.dummy).toBlocking().toArray()) { error in
            XCTAssertEqual(error as? TestError, .dummy)
        }
    }

    func testToArray_someData() throws {
        XCTAssertEqual(try Observable.of(42, 43, 44, 45).toBlocking().toArray(), [42, 43, 44, 45])
    }

    func testToArray_withRealScheduler() throws {
        let array = try Observable<Int>.interval(.milliseconds(1), scheduler: SerialDispatchQueueScheduler(qos: .default))
            .take(10)
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(array, Array(0..<10))
    }

    func testToArray_timeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.01).toArray()) { error in
            guard case RxError.timeout? = error as? RxError else { return XCTFail("expected RxError.timeout, got \(error)") }
        }
    }

    // MARK: first

    func testFirst_empty() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
    }

    func testFirst_return() throws {
        XCTAssertEqual(try Observable.just(42).toBlocking().first(), 42)
    }

    func testFirst_fail() {
        XCTAssertThrowsError(try Observable<Int>.error(TestError.dummy).toBlocking().first()) { error in
            XCTAssertEqual(error as? TestError, .dummy)
        }
    }

    func testFirst_someData_disposesAfterTheFirstElement() throws {
        var disposed = false
        let source = Observable.of(42, 43, 44, 45).concat(Observable.never()).do(onDispose: { disposed = true })
        XCTAssertEqual(try source.toBlocking(timeout: 5).first(), 42)
        XCTAssertTrue(disposed)
    }

    func testFirst_withRealScheduler() throws {
        let first = try Observable.just(7).subscribe(on: backgroundScheduler).toBlocking(timeout: 5).first()
        XCTAssertEqual(first, 7)
    }

    func testFirst_timeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.01).first()) { error in
            guard case RxError.timeout? = error as? RxError else { return XCTFail("expected RxError.timeout, got \(error)") }
        }
    }

    // MARK: last

    func testLast_empty() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().last())
    }

    func testLast_someData() throws {
        XCTAssertEqual(try Observable.of(42, 43, 44, 45).toBlocking().last(), 45)
    }

    func testLast_fail() {
        XCTAssertThrowsError(try Observable.just(1).concat(Observable.error(TestError.dummy)).toBlocking().last()) { error in
            XCTAssertEqual(error as? TestError, .dummy)
        }
    }

    func testLast_withRealScheduler() throws {
        let last = try Observable.of(1, 2, 3).subscribe(on: backgroundScheduler).toBlocking(timeout: 5).last()
        XCTAssertEqual(last, 3)
    }

    // MARK: single

    func testSingle_empty() {
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { error in
            guard case RxError.noElements? = error as? RxError else { return XCTFail("expected RxError.noElements, got \(error)") }
        }
    }

    func testSingle_return() throws {
        XCTAssertEqual(try Observable.just(42).toBlocking().single(), 42)
    }

    func testSingle_two() {
        XCTAssertThrowsError(try Observable.of(42, 43).concat(Observable.never()).toBlocking(timeout: 5).single()) { error in
            guard case RxError.moreThanOneElement? = error as? RxError else {
                return XCTFail("expected RxError.moreThanOneElement, got \(error)")
            }
        }
    }

    func testSingle_predicate() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3, 4).toBlocking().single { $0 == 3 }, 3)
        XCTAssertThrowsError(try Observable.of(1, 2, 3, 4).toBlocking().single { $0 % 2 == 0 }) { error in
            guard case RxError.moreThanOneElement? = error as? RxError else {
                return XCTFail("expected RxError.moreThanOneElement, got \(error)")
            }
        }
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single { _ in throw TestError.dummy }) { error in
            XCTAssertEqual(error as? TestError, .dummy)
        }
    }

    func testSingle_timeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.01).single()) { error in
            guard case RxError.timeout? = error as? RxError else { return XCTFail("expected RxError.timeout, got \(error)") }
        }
    }

    // MARK: materialize

    func testMaterialize_empty() {
        guard case .completed(let elements) = Observable<Int>.empty().toBlocking().materialize() else {
            return XCTFail("expected completed")
        }
        XCTAssertEqual(elements, [])
    }

    func testMaterialize_someData() {
        guard case .completed(let elements) = Observable.of(1, 2, 3).toBlocking().materialize() else {
            return XCTFail("expected completed")
        }
        XCTAssertEqual(elements, [1, 2, 3])
    }

    func testMaterialize_failAfterElements() {
        let result = Observable.of(1, 2).concat(Observable.error(TestError.dummy)).toBlocking().materialize()
        guard case .failed(let elements, let error) = result else { return XCTFail("expected failed") }
        XCTAssertEqual(elements, [1, 2])
        XCTAssertEqual(error as? TestError, .dummy)
    }

    func testMaterialize_timeout() {
        let result = Observable.just(1).concat(Observable.never()).toBlocking(timeout: 0.01).materialize()
        guard case .failed(let elements, let error) = result else { return XCTFail("expected failed") }
        XCTAssertEqual(elements, [1])
        guard case RxError.timeout? = error as? RxError else { return XCTFail("expected RxError.timeout, got \(error)") }
    }

    // MARK: traits

    func testTraits_toBlocking() throws {
        XCTAssertEqual(try Single.just(1).toBlocking().first(), 1)
        XCTAssertNil(try Maybe<Int>.empty().toBlocking().first())
        guard case .completed(let elements) = Completable.empty().toBlocking().materialize() else {
            return XCTFail("expected completed")
        }
        XCTAssertTrue(elements.isEmpty)
        XCTAssertThrowsError(try Completable.error(TestError.dummy).toBlocking().toArray()) { error in
            XCTAssertEqual(error as? TestError, .dummy)
        }
    }

    // MARK: the waiting thread

    /// Called from inside a `CurrentThreadScheduler` action: the chain's
    /// trampoline work runs before the wait instead of after it.
    func testToBlocking_insideACurrentThreadSchedulerAction_doesNotDeadlock() {
        nonisolated(unsafe) var result: [Int]?
        nonisolated(unsafe) var order: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("queued before")
                return Disposables.create()
            }
            result = try? Observable.of(1, 2, 3)
                .subscribe(on: CurrentThreadScheduler.instance)
                .concatMap { Observable.just($0 * 10).subscribe(on: CurrentThreadScheduler.instance) }
                .toBlocking(timeout: 2)
                .toArray()
            order.append("blocking returned")
            return Disposables.create()
        }
        XCTAssertEqual(result, [10, 20, 30])
        XCTAssertEqual(order, ["blocking returned", "queued before"])
    }

    /// On the main thread, work the chain sends to the main queue runs while
    /// the operator waits (RxSwift spins the run loop for it).
    func testToBlocking_onTheMainThread_runsMainSchedulerWork() throws {
        let values = try Observable.of(1, 2, 3)
            .subscribe(on: backgroundScheduler)
            .observe(on: MainScheduler.instance)
            .map { value -> Int in
                MainScheduler.ensureExecutingOnScheduler()
                return value * 2
            }
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [2, 4, 6])

        let delayed = try Observable.just(1)
            .delay(.milliseconds(5), scheduler: MainScheduler.asyncInstance)
            .toBlocking(timeout: 5)
            .single()
        XCTAssertEqual(delayed, 1)
    }

    /// A chain that emits from several threads at once is collected whole.
    func testToArray_concurrentSources() throws {
        let sources = (0..<8).map { index in
            Observable.range(start: index * 100, count: 100).subscribe(on: backgroundScheduler)
        }
        let values = try Observable.merge(sources).toBlocking(timeout: 10).toArray()
        XCTAssertEqual(values.sorted(), Array(0..<800))
    }
}
