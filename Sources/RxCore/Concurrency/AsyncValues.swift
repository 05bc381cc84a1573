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
        /// The buffer's weight, counted when there is a demand.
        var buffered = 0
        /// Whether the source was told to pause (and not yet to resume).
        var paused = false
        /// Whether the last `takeReady` left the buffer at or below the low
        /// watermark of a paused source: the caller tells it to resume,
        /// outside the lock.
        var resumes = false

        /// What `next()` can return without waiting: an element, or the
        /// end (an error is returned once). `nil` when it has to wait.
        mutating func takeReady(_ demand: AsyncValuesDemand<Element>?) -> Result<Element?, Error>? {
            if let element = buffer.dequeue() {
                if let demand {
                    buffered -= demand.weight(element)
                    if paused, buffered <= demand.lowWatermark {
                        paused = false
                        resumes = true
                    }
                }
                return .success(element)
            }
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
    private let demand: AsyncValuesDemand<Element>?

    init(_ source: Observable<Element>, demand: AsyncValuesDemand<Element>? = nil) {
        self.source = source
        self.demand = demand
    }

    deinit {
        subscription.dispose()
    }

    /// The next element, `nil` at the end; throws the source's error, or
    /// `CancellationError` where the rules say. Runs on the caller's
    /// executor and resumes there.
    nonisolated(nonsending) func next() async throws -> Element? {
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
        let (ready, resumes) = state.locked { state in
            let ready = state.takeReady(demand)
            defer { state.resumes = false }
            return (ready, state.resumes)
        }
        if resumes {
            demand?.resume()
        }
        return ready
    }

    private func wait(_ continuation: CheckedContinuation<Element?, Error>) {
        let (outcome, resumes) = state.locked { state -> (Result<Element?, Error>?, Bool) in
            defer { state.resumes = false }
            if let ready = state.takeReady(demand) { return (ready, state.resumes) }
            if state.cancelled {
                state.end = .completed
                return (.failure(CancellationError()), false)
            }
            state.waiter = continuation
            return (nil, false)
        }
        if resumes {
            demand?.resume()
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
        let (waiter, pauses) = state.locked { state -> (CheckedContinuation<Element?, Error>?, Bool) in
            if case .some = state.end { return (nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                if case .error = event { state.end = .completed }
                if case .completed = event { state.end = .completed }
                return (waiter, false)
            }
            switch event {
            case .next(let element):
                state.buffer.enqueue(element)
                if let demand {
                    state.buffered += demand.weight(element)
                    if !state.paused, state.buffered > demand.highWatermark {
                        state.paused = true
                        return (nil, true)
                    }
                }
            case .error(let error): state.end = .failed(error)
            case .completed: state.end = .completed
            }
            return (nil, false)
        }
        if pauses {
            // On the source's thread, during its `onNext`: it pauses before
            // it produces again.
            demand?.pause()
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

/// How a bounded `values` asks its source for less: the weight of an
/// element, the watermarks on the buffered weight, and the two calls to the
/// source. `pause` is called during the source's `onNext`, on its thread,
/// when the buffer grows above `highWatermark`; `resume` is called on the
/// consumer's executor when it takes the buffer down to `lowWatermark` or
/// less. The source may deliver what is already on its way after a pause.
@_spi(Bridge)
public struct AsyncValuesDemand<Element>: Sendable {
    /// Above this buffered weight the source is asked to pause.
    public var highWatermark: Int
    /// At or below this buffered weight a paused source is asked to resume.
    public var lowWatermark: Int
    /// An element's weight (a byte count, or 1 to count elements).
    public var weight: @Sendable (Element) -> Int
    /// Asks the source to pause.
    public var pause: @Sendable () -> Void
    /// Asks a paused source to resume.
    public var resume: @Sendable () -> Void

    /// A demand with these watermarks, weight and calls; `lowWatermark`
    /// is kept at or below `highWatermark`.
    public init(
        highWatermark: Int, lowWatermark: Int, weight: @escaping @Sendable (Element) -> Int,
        pause: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void
    ) {
        self.highWatermark = max(highWatermark, 0)
        self.lowWatermark = min(max(lowWatermark, 0), self.highWatermark)
        self.weight = weight
        self.pause = pause
        self.resume = resume
    }
}
