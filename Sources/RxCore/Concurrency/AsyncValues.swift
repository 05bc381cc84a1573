import Synchronization

/// The state behind `values`: subscribes on the first `next()`, buffers
/// what arrives while the consumer is busy, and applies the cancellation
/// rules of `values`: what has arrived is handed out even in a cancelled
/// Task; a `next()` that would have to wait in a cancelled Task (cancelled
/// before or while it waits) throws `CancellationError` and disposes the
/// subscription. Released with the iteration (the loop ended or left
/// early), it disposes the subscription.
final class AsyncValues<Element>: @unchecked Sendable {
    // @unchecked Sendable: the state is read and written under its lock;
    // elements cross to the iterating task as they cross threads in Rx.
    private enum End {
        case completed
        case failed(Error)
    }

    private struct State: @unchecked Sendable {
        var started = false
        var buffer = RingQueue<Element>()
        var end: End?
        var waiter: CheckedContinuation<Element?, Error>?
        var cancelled = false

        /// What `next()` can return without waiting: an element, or the
        /// end (an error is returned once). `nil` when it has to wait.
        mutating func takeReady() -> Result<Element?, Error>? {
            if let element = buffer.dequeue() { return .success(element) }
            switch end {
            case .completed?: return .success(nil)
            case .failed(let error)?:
                end = .completed
                return .failure(error)
            case nil: return nil
            }
        }
    }

    private let state = Mutex(State())
    private let subscription = SingleAssignmentDisposable()
    private let source: Observable<Element>

    init(_ source: Observable<Element>) {
        self.source = source
    }

    deinit {
        subscription.dispose()
    }

    /// The next element, `nil` at the end; throws the source's error, or
    /// `CancellationError` where the rules say.
    func next() async throws -> Element? {
        let start = state.locked { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        if start {
            subscription.setDisposable(
                source.subscribe { [weak self] event in self?.on(event) }
            )
        }
        if let ready = takeReady() {
            return try ready.get()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                self.wait(continuation)
            }
        } onCancel: {
            self.cancel()
        }
    }

    private func takeReady() -> Result<Element?, Error>? {
        state.locked { $0.takeReady() }
    }

    private func wait(_ continuation: CheckedContinuation<Element?, Error>) {
        let outcome = state.locked { state -> Result<Element?, Error>? in
            if let ready = state.takeReady() { return ready }
            if state.cancelled {
                state.end = .completed
                return .failure(CancellationError())
            }
            state.waiter = continuation
            return nil
        }
        guard let ready = outcome else { return }
        if case .failure(let error) = ready, error is CancellationError {
            subscription.dispose()
        }
        // Elements cross to the iterating task as they cross threads in Rx.
        nonisolated(unsafe) let result = ready
        continuation.resume(with: result)
    }

    private func cancel() {
        let waiter = state.locked { state -> CheckedContinuation<Element?, Error>? in
            state.cancelled = true
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.end = .completed
            return waiter
        }
        if let waiter {
            subscription.dispose()
            waiter.resume(throwing: CancellationError())
        }
    }

    private func on(_ event: Event<Element>) {
        let waiter = state.locked { state -> CheckedContinuation<Element?, Error>? in
            if case .some = state.end { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                if case .error = event { state.end = .completed }
                if case .completed = event { state.end = .completed }
                return waiter
            }
            switch event {
            case .next(let element): state.buffer.enqueue(element)
            case .error(let error): state.end = .failed(error)
            case .completed: state.end = .completed
            }
            return nil
        }
        guard let waiter else { return }
        // The element goes to the iterating task: Rx's contract lets an
        // element cross threads (as `observe(on:)` does).
        let result: Result<Element?, Error>
        switch event {
        case .next(let element): result = .success(element)
        case .error(let error): result = .failure(error)
        case .completed: result = .success(nil)
        }
        nonisolated(unsafe) let sent = result
        waiter.resume(with: sent)
    }
}
