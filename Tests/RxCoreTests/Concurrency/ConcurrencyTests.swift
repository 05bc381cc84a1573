import Dispatch
import RxCore
import RxCoreTestSupport
import Synchronization
import XCTest

final class ConcurrencyTests: RxCoreTestCase {
    func testValues_IteratesUntilCompletion() async throws {
        var collected: [Int] = []
        for try await value in Observable.just(1).concatValues([2, 3]).values {
            collected.append(value)
        }
        XCTAssertEqual(collected, [1, 2, 3])
    }

    func testValues_ThrowsTheError() async {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }
        var collected: [Int] = []
        do {
            for try await value in source.values {
                collected.append(value)
            }
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        XCTAssertEqual(collected, [1])
    }

    func testValues_BreakDisposesSubscription() async throws {
        let subject = PublishSubject<Int>()
        let disposed = expectation(description: "disposed")
        let source = Observable<Int>.create { observer in
            let inner = subject.subscribe(observer)
            return Disposables.create {
                inner.dispose()
                disposed.fulfill()
            }
        }
        let producer = Task {
            for value in 0..<1_000 {
                subject.onNext(value)
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        for try await value in source.values where value >= 2 {
            break
        }
        await fulfillment(of: [disposed], timeout: 5)
        producer.cancel()
        _ = await producer.result
    }

    func testInfallibleValues() async {
        var collected: [Int] = []
        for await value in Infallible.just(7).values {
            collected.append(value)
        }
        XCTAssertEqual(collected, [7])
    }

    func testSingleValue() async throws {
        let value = try await Single.just(42).value
        XCTAssertEqual(value, 42)
        do {
            _ = try await Single<Int>.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testMaybeAndCompletableValue() async throws {
        let some = try await Maybe.just(1).value
        let none = try await Maybe<Int>.empty().value
        XCTAssertEqual(some, 1)
        XCTAssertNil(none)
        try await Completable.empty().value
        do {
            try await Completable.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSingleValue_CancellingTheTaskDisposes() async {
        let disposed = expectation(description: "disposed")
        let single = Single<Int>.create { _ in
            Disposables.create { disposed.fulfill() }
        }
        let task = Task { try await single.value }
        try? await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue(error is CancellationError)
        }
    }

    func testSingleCreateAsync_SucceedsAndFails() async throws {
        let value = try await Single<Int>.create { () async throws -> Int in
            try await Task.sleep(nanoseconds: 1_000_000)
            return 5
        }.value
        XCTAssertEqual(value, 5)
        do {
            _ = try await Single<Int>.create(detached: true) { () async throws -> Int in throw testError }.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSingleCreateAsync_DisposeCancelsTask() async {
        let cancelled = expectation(description: "task cancelled")
        let single = Single<Int>.create { () async throws -> Int in
            do {
                try await Task.sleep(nanoseconds: 10_000_000_000)
            } catch {
                cancelled.fulfill()
                throw error
            }
            return 1
        }
        let subscription = single.subscribe(onSuccess: { _ in XCTFail("must not succeed") }, onFailure: { _ in })
        try? await Task.sleep(nanoseconds: 20_000_000)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 5)
    }

    /// `Completable.create(work:)` completes when the work returns and fails
    /// with its error; with an executor preference the work runs on that
    /// executor; disposing cancels the Task.
    func testCompletableCreateAsync_CompletesFailsRunsOnThePreferredExecutorAndCancels() async throws {
        let ran = Mutex(false)
        try await Completable.create { ran.withLock { $0 = true } }.value
        XCTAssertTrue(ran.withLock { $0 })
        do {
            try await Completable.create(detached: true) { throw testError }.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }

        let executor = CountingTaskExecutor()
        try await Completable.create(executorPreference: executor) {}.value
        XCTAssertGreaterThan(executor.jobs, 0)

        let cancelled = expectation(description: "task cancelled")
        let subscription = Completable.create {
            do {
                try await Task.sleep(nanoseconds: 10_000_000_000)
            } catch {
                cancelled.fulfill()
                throw error
            }
        }.subscribe(onCompleted: { XCTFail("must not complete") }, onError: { _ in })
        try? await Task.sleep(nanoseconds: 20_000_000)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 5)
    }

    func testAsyncSequenceAsObservable() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let collected = try await stream.asObservable().toArray().value
        XCTAssertEqual(collected, [1, 2, 3])
    }

    func testAsyncSequenceAsObservable_DisposeCancelsIteration() async {
        let cancelled = expectation(description: "iteration cancelled")
        let stream = AsyncStream<Int> { continuation in
            continuation.onTermination = { _ in cancelled.fulfill() }
            continuation.yield(1)
        }
        let first = expectation(description: "first element")
        let subscription = stream.asObservable().subscribe(onNext: { _ in first.fulfill() })
        await fulfillment(of: [first], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 5)
    }
}

extension ObservableType {
    /// `self` followed by `values`, without relying on the concat operator.
    fileprivate func concatValues(_ values: [Element]) -> Observable<Element> {
        Observable.create { observer in
            self.subscribe(
                onNext: observer.onNext, onError: observer.onError,
                onCompleted: {
                    values.forEach(observer.onNext)
                    observer.onCompleted()
                })
        }
    }
}

/// A task executor that runs each job on the global concurrent executor
/// and counts them.
private final class CountingTaskExecutor: TaskExecutor {
    private let count = Mutex(0)

    var jobs: Int {
        count.withLock { $0 }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        count.withLock { $0 += 1 }
        let job = UnownedJob(job)
        DispatchQueue.global().async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
