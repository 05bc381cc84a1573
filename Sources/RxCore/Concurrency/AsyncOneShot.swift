import Synchronization

/// Bridges one Rx outcome to one `async` result, with the cancellation rules
/// of `value`: the outcome of a source that reports while it is being
/// subscribed is returned even in a cancelled Task; a Task that is cancelled
/// (before or while) it would have to wait gets `CancellationError`, and the
/// subscription is disposed.
final class AsyncOneShot<Value>: @unchecked Sendable {
    // @unchecked Sendable: read and written only under `state`'s lock.
    private struct State: @unchecked Sendable {
        var continuation: CheckedContinuation<Value, Error>?
        var resumed = false
        var cancelled = false
        var subscribing = false
    }

    private let state = Mutex(State())
    private let subscription = SingleAssignmentDisposable()

    /// Awaits the first outcome that `subscribe` reports, on the caller's
    /// executor.
    nonisolated(nonsending) static func await(_ subscribe: (@escaping (Result<Value, Error>) -> Void) -> Disposable) async throws -> Value {
        let oneShot = AsyncOneShot<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                oneShot.start(continuation, subscribe)
            }
        } onCancel: {
            oneShot.cancel()
        }
    }

    /// Installs the continuation, subscribes (a synchronous source resolves
    /// right here), then, if the Task was cancelled meanwhile and nothing
    /// came, ends the wait with `CancellationError`.
    private func start(
        _ continuation: CheckedContinuation<Value, Error>,
        _ subscribe: (@escaping (Result<Value, Error>) -> Void) -> Disposable
    ) {
        state.withLock { state in
            state.continuation = continuation
            state.subscribing = true
        }
        subscription.setDisposable(subscribe { result in self.resolve(result) })
        let cancelled = state.locked { state -> CheckedContinuation<Value, Error>? in
            state.subscribing = false
            guard state.cancelled, !state.resumed else { return nil }
            return take(&state)
        }
        if let cancelled {
            subscription.dispose()
            cancelled.resume(throwing: CancellationError())
        }
    }

    private func cancel() {
        let continuation = state.locked { state -> CheckedContinuation<Value, Error>? in
            state.cancelled = true
            // Not started yet, or still subscribing: `start` decides once
            // the subscribe call has returned, so that a synchronous
            // outcome wins.
            guard !state.subscribing, !state.resumed, state.continuation != nil else { return nil }
            return take(&state)
        }
        if let continuation {
            subscription.dispose()
            continuation.resume(throwing: CancellationError())
        }
    }

    private func resolve(_ result: Result<Value, Error>) {
        let continuation = state.locked { state -> CheckedContinuation<Value, Error>? in
            guard !state.resumed else { return nil }
            return take(&state)
        }
        // The result goes to the awaiting task, as an element crosses
        // threads in Rx.
        nonisolated(unsafe) let result = result
        continuation?.resume(with: result)
    }

    private func take(_ state: inout State) -> CheckedContinuation<Value, Error>? {
        state.resumed = true
        defer { state.continuation = nil }
        return state.continuation
    }
}
