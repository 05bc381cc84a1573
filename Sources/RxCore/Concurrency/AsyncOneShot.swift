import Synchronization

/// Bridges one Rx outcome to one `async` result: resumes the continuation
/// exactly once (with the outcome, or `CancellationError` when the Task is
/// cancelled) and disposes the subscription on cancellation.
final class AsyncOneShot<Value>: @unchecked Sendable {
    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var continuation: CheckedContinuation<Value, Error>?
        var result: Result<Value, Error>?
        var resumed = false
    }

    private let state = Mutex(State())
    private let subscription = SingleAssignmentDisposable()

    /// Awaits the first outcome that `subscribe` reports.
    static func await(_ subscribe: (@escaping (Result<Value, Error>) -> Void) -> Disposable) async throws -> Value {
        let oneShot = AsyncOneShot<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                oneShot.install(continuation)
                oneShot.subscription.setDisposable(subscribe { result in oneShot.resolve(result) })
            }
        } onCancel: {
            oneShot.resolve(.failure(CancellationError()))
            oneShot.subscription.dispose()
        }
    }

    private func install(_ continuation: CheckedContinuation<Value, Error>) {
        let early = state.withLock { state -> Result<Value, Error>? in
            if let result = state.result {
                state.resumed = true
                return result
            }
            state.continuation = continuation
            return nil
        }
        if let early {
            continuation.resume(with: early)
        }
    }

    private func resolve(_ result: Result<Value, Error>) {
        let continuation = state.locked { state -> CheckedContinuation<Value, Error>? in
            if state.resumed || state.result != nil { return nil }
            guard let continuation = state.continuation else {
                state.result = result
                return nil
            }
            state.resumed = true
            state.continuation = nil
            return continuation
        }
        // The result goes to the awaiting task, as an element crosses
        // threads in Rx.
        nonisolated(unsafe) let result = result
        continuation?.resume(with: result)
    }
}
