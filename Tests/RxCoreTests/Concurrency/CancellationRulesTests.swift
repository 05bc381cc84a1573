import RxCore
import RxCoreTestSupport
import XCTest

/// The async bridges' cancellation rules, each with a task the test awaits.
/// A task cancels itself (`withUnsafeCurrentTask`) for the "already
/// cancelled" rules, so nothing depends on timing.
final class CancellationRulesTests: RxCoreTestCase {
    private enum Outcome: Equatable {
        case ended([Int])
        case cancelled([Int])
        case failed([Int])
    }

    /// Iterates `source.values` to its end: what arrived, and how it ended.
    private static func iterate(_ source: UncheckedBox<Observable<Int>>) async -> Outcome {
        var collected: [Int] = []
        do {
            for try await value in source.value.values {
                collected.append(value)
            }
            return .ended(collected)
        } catch is CancellationError {
            return .cancelled(collected)
        } catch {
            return .failed(collected)
        }
    }

    /// Iterates `source.values` in a task that cancels itself first.
    private func iterateInCancelledTask(_ source: Observable<Int>) async -> Outcome {
        let source = UncheckedBox(source)
        let task = Task { () -> Outcome in
            withUnsafeCurrentTask { $0?.cancel() }
            return await CancellationRulesTests.iterate(source)
        }
        return await task.value
    }

    // MARK: values

    func testValues_CancelledBeforeAnyElementArrives_ThrowsCancellationError() async {
        let subject = PublishSubject<Int>()
        let outcome = await iterateInCancelledTask(subject.asObservable())
        XCTAssertEqual(outcome, .cancelled([]))
        XCTAssertFalse(subject.hasObservers)
    }

    func testValues_CancelledTask_GetsWhatHasAlreadyArrived() async {
        let outcome = await iterateInCancelledTask(Observable.from([1, 2, 3]))
        XCTAssertEqual(outcome, .ended([1, 2, 3]))

        let subject = BehaviorSubject(value: 7)
        let waiting = await iterateInCancelledTask(subject.asObservable())
        XCTAssertEqual(waiting, .cancelled([7]))
        XCTAssertFalse(subject.hasObservers)
    }

    func testValues_CancelledTask_GetsAnErrorThatHasArrived() async {
        let outcome = await iterateInCancelledTask(Observable.just(1).concat(Observable.error(testError)))
        XCTAssertEqual(outcome, .failed([1]))
    }

    func testValues_CancelledWhileWaiting_ThrowsCancellationErrorAndDisposes() async {
        let subject = PublishSubject<Int>()
        let (subscribed, signal) = AsyncStream<Void>.makeStream()
        let source = UncheckedBox(subject.do(onSubscribed: { signal.yield() }))
        let task = Task { () -> Outcome in
            await CancellationRulesTests.iterate(source)
        }
        for await _ in subscribed { break }
        subject.onNext(1)
        task.cancel()
        let outcome = await task.value
        XCTAssertEqual(outcome, .cancelled([1]))
        XCTAssertFalse(subject.hasObservers)
    }

    func testValues_EachIterationSubscribes() async throws {
        let values = Observable.from([1, 2]).values
        var first: [Int] = []
        for try await value in values { first.append(value) }
        var second: [Int] = []
        for try await value in values { second.append(value) }
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
    }

    // MARK: value

    func testSingleValue_CancelledTask_SynchronousSourceReturnsItsElement() async throws {
        let task = Task { () throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Single.just(1).value
        }
        let value = try await task.value
        XCTAssertEqual(value, 1)
    }

    func testSingleValue_CancelledTask_SynchronousFailureIsThrown() async {
        let task = Task { () throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Single<Int>.error(testError).value
        }
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testMaybeValue_CancelledTask_SynchronousSourcesReturn() async throws {
        let task = Task { () throws -> [Int?] in
            withUnsafeCurrentTask { $0?.cancel() }
            let empty = try await Maybe<Int>.empty().value
            let some = try await Maybe.just(2).value
            return [empty, some]
        }
        let values = try await task.value
        XCTAssertEqual(values, [nil, 2])
    }

    func testCompletableValue_CancelledTask_SynchronousCompletionReturns() async throws {
        let task = Task { () throws -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            try await Completable.empty().value
            return "completed"
        }
        let value = try await task.value
        XCTAssertEqual(value, "completed")
    }

    func testValue_CancelledTask_ThrowsCancellationErrorWhenItWouldWait() async {
        let disposed = ManagedCounter()
        let single = UncheckedBox(Single<Int>.never().do(onDispose: { disposed.increment() }))
        let maybe = UncheckedBox(Maybe<Int>.never().do(onDispose: { disposed.increment() }))
        let completable = UncheckedBox(Completable.never().do(onDispose: { disposed.increment() }))
        let task = Task { () -> [String] in
            withUnsafeCurrentTask { $0?.cancel() }
            var outcomes: [String] = []
            do { _ = try await single.value.value } catch { outcomes.append("\(type(of: error))") }
            do { _ = try await maybe.value.value } catch { outcomes.append("\(type(of: error))") }
            do { try await completable.value.value } catch { outcomes.append("\(type(of: error))") }
            return outcomes
        }
        let outcomes = await task.value
        XCTAssertEqual(outcomes, ["CancellationError", "CancellationError", "CancellationError"])
        XCTAssertEqual(disposed.current, 3)
    }

    func testValue_CancelledWhileWaiting_ThrowsCancellationErrorAndDisposes() async {
        let subject = PublishSubject<Int>()
        let (subscribed, signal) = AsyncStream<Void>.makeStream()
        let single = UncheckedBox(subject.do(onSubscribed: { signal.yield() }).asSingle())
        let task = Task { try await single.value.value }
        for await _ in subscribed { break }
        task.cancel()
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertFalse(subject.hasObservers)
    }
}

/// Hands a non-`Sendable` Rx value to a test's task, which alone uses it.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
