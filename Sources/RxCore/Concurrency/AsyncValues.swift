import Synchronization

/// The state behind `values`: subscribes on the first `next()`, buffers
/// what arrives while the consumer is busy, and applies the cancellation
/// rules of `values`: what has arrived is handed out even in a cancelled
/// Task; a `next()` that would have to wait in a cancelled Task (cancelled
/// before or while it waits) throws `CancellationError` and disposes the
/// subscription. The iteration holds it through an `AsyncValuesLease`,
/// which disposes the subscription when the iteration is released (the
/// loop ended or left early); the source's observer holds it strongly
/// until then (strongly, not weakly: a weak reference would give it a side
/// table, with every element).
///
/// Inlinable, its state usable from inlinable code, so that the module
/// that iterates a concrete element type (RxUV's `ByteBuffer`s)
/// specialises it: run unspecialised from another module, every lock and
/// every `Result` of `Element` asks the runtime for generic metadata (the
/// figures: Documentation/Benchmarks/2026-11-26-seams-async-tls-http.md).
@usableFromInline
package final class AsyncValues<Element>: @unchecked Sendable {
    // @unchecked Sendable: the state is read and written under its lock;
    // elements cross to the iterating task as they cross threads in Rx. The
    // waiting continuation is an unsafe one (no checking object per wait):
    // the lock hands it out once, to whichever of an event, the
    // cancellation or `wait` takes it first.
    @usableFromInline
    enum End {
        case completed
        case failed(Error)
    }

    @usableFromInline
    struct State: @unchecked Sendable {
        @usableFromInline var started = false
        @usableFromInline var buffer = RingQueue<Element>()
        @usableFromInline var end: End?
        @usableFromInline var waiter: UnsafeContinuation<Element?, Error>?
        @usableFromInline var cancelled = false
        /// The weight held, counted when there is a demand: the buffer's,
        /// and the element last handed out, which the consumer holds until
        /// it asks for the next.
        @usableFromInline var buffered = 0
        /// The weight of the element last handed out.
        @usableFromInline var inHand = 0
        /// Whether the source was told to pause (and not yet to resume).
        @usableFromInline var paused = false
        /// The consumer is done with the element it holds (it asks for the
        /// next): its weight goes. Returns `true` when that takes a paused
        /// source's weight to the low watermark or below: the caller tells
        /// it to resume, outside the lock.
        @inlinable
        mutating func release(_ demand: AsyncValuesDemand<Element>?) -> Bool {
            guard let demand else { return false }
            buffered -= inHand
            inHand = 0
            guard paused, buffered <= demand.lowWatermark else { return false }
            paused = false
            return true
        }

        /// Returns `true` when the weight held has just passed the high
        /// watermark: the caller tells the source to pause, outside the lock.
        @inlinable
        mutating func pauseIfAbove(_ demand: AsyncValuesDemand<Element>) -> Bool {
            guard !paused, buffered > demand.highWatermark else { return false }
            paused = true
            return true
        }

        /// What `next()` can return without waiting: an element, or the
        /// end (an error is returned once). `nil` when it has to wait.
        @inlinable
        mutating func takeReady(_ demand: AsyncValuesDemand<Element>?) -> Result<Element?, Error>? {
            if let element = buffer.dequeue() {
                if let demand {
                    inHand = demand.weight(element)
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

    @usableFromInline let state = Mutex(State())
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline let source: Observable<Element>
    @usableFromInline let demand: AsyncValuesDemand<Element>?

    @usableFromInline
    init(_ source: Observable<Element>, demand: AsyncValuesDemand<Element>? = nil) {
        self.source = source
        self.demand = demand
    }

    /// The next element, `nil` at the end; throws the source's error, or
    /// `CancellationError` where the rules say. Runs on the caller's
    /// executor and resumes there: for code of no actor, on the generic
    /// executor, which for a task that prefers an executor (a `Loop`) is
    /// that one. A caller isolated to an actor calls `next(isolation:)`.
    @inlinable
    nonisolated(nonsending) func next() async throws -> Element? {
        if let ready = prepareNext() {
            return try ready.get()
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                self.wait(continuation)
            }
        } onCancel: {
            self.cancel()
        }
    }

    /// The next element for a caller isolated to `actor`: see `next()`.
    /// The wait's closures capture `actor`, so that they are isolated to it
    /// too: a closure of no isolation would leave the actor for the
    /// generic executor (the global one, for a task that prefers none) to
    /// register the wait, and hop back after it.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
        if let ready = prepareNext() {
            return try ready.get()
        }
        return try await withTaskCancellationHandler(
            operation: {
                _ = actor
                return try await withUnsafeThrowingContinuation(isolation: actor) { continuation in
                    self.wait(continuation)
                }
            },
            onCancel: { self.cancel() },
            isolation: actor)
    }

    /// What a `next()` does before it may wait: the consumer is done with
    /// the element it held (a paused source may resume), the first call
    /// subscribes, and what is ready is taken.
    @inlinable
    func prepareNext() -> Result<Element?, Error>? {
        let (start, resumes) = state.locked { state -> (Bool, Bool) in
            defer { state.started = true }
            return (!state.started, state.release(demand))
        }
        if resumes {
            demand?.resume()
        }
        if start {
            if let subscribe = demand?.subscribe {
                subscription.setDisposable(subscribe(source, self))
            } else {
                subscription.setDisposable(source.subscribe { event in self.on(event) })
            }
        }
        return takeReady()
    }

    @inlinable
    func takeReady() -> Result<Element?, Error>? {
        state.locked { $0.takeReady(demand) }
    }

    @inlinable
    func wait(_ continuation: UnsafeContinuation<Element?, Error>) {
        let outcome = state.locked { state -> Result<Element?, Error>? in
            if let ready = state.takeReady(demand) { return ready }
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

    @inlinable
    func cancel() {
        let waiter = state.locked { state -> UnsafeContinuation<Element?, Error>? in
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

    /// Takes one event of the source: hands it to a waiting `next()` or
    /// buffers it. Any thread, one event at a time.
    @inlinable
    package func on(_ event: Event<Element>) {
        let (waiter, pauses) = state.locked { state -> (UnsafeContinuation<Element?, Error>?, Bool) in
            if case .some = state.end { return (nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                switch event {
                case .next(let element):
                    // Handed straight to the consumer, which holds it until
                    // it asks again.
                    if let demand {
                        let weight = demand.weight(element)
                        state.inHand = weight
                        state.buffered += weight
                        return (waiter, state.pauseIfAbove(demand))
                    }
                case .error, .completed:
                    state.end = .completed
                }
                return (waiter, false)
            }
            switch event {
            case .next(let element):
                state.buffer.enqueue(element)
                if let demand {
                    state.buffered += demand.weight(element)
                    if state.pauseIfAbove(demand) {
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
/// element, the watermarks on the weight held (the buffer, and the element
/// the consumer holds until it asks for the next), and the two calls to
/// the source. `pause` is called during the source's `onNext`, on its
/// thread, when the weight held grows above `highWatermark`; `resume` is
/// called on the consumer's executor when it asks for an element with the
/// weight held at `lowWatermark` or less. The source may deliver what is
/// already on its way after a pause.
///
/// A class, so that the iteration's state hands it around by reference:
/// as a struct of closures, each use under the lock copied it, retaining
/// and releasing every closure.
@usableFromInline
package final class AsyncValuesDemand<Element>: Sendable {
    /// Above this buffered weight the source is asked to pause.
    @usableFromInline package let highWatermark: Int
    /// At or below this buffered weight a paused source is asked to resume.
    @usableFromInline package let lowWatermark: Int
    /// An element's weight (a byte count, or 1 to count elements).
    @usableFromInline package let weight: @Sendable (Element) -> Int
    /// Asks the source to pause.
    @usableFromInline package let pause: @Sendable () -> Void
    /// Asks a paused source to resume.
    @usableFromInline package let resume: @Sendable () -> Void
    /// Subscribes the iteration to the source, when the module that knows
    /// the element type brings an observer of its own: one whose
    /// conformance is compiled for that type, so that each element reaches
    /// `AsyncValues.on(_:)` in specialised code. The observer may hold the
    /// iteration strongly: the iteration's lease disposes the subscription
    /// when the iteration ends. `nil`: a closure observer.
    @usableFromInline package let subscribe: (@Sendable (Observable<Element>, AsyncValues<Element>) -> Disposable)?

    /// A demand with these watermarks, weight and calls; `lowWatermark`
    /// is kept at or below `highWatermark`.
    package init(
        highWatermark: Int, lowWatermark: Int, weight: @escaping @Sendable (Element) -> Int,
        pause: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void,
        subscribe: (@Sendable (Observable<Element>, AsyncValues<Element>) -> Disposable)? = nil
    ) {
        self.highWatermark = max(highWatermark, 0)
        self.lowWatermark = min(max(lowWatermark, 0), self.highWatermark)
        self.weight = weight
        self.pause = pause
        self.resume = resume
        self.subscribe = subscribe
    }
}

/// An iteration's hold on its `AsyncValues`: released with the iteration
/// (the last copy of its iterator), it disposes the subscription, which
/// lets the source's observer, and so the `AsyncValues`, go.
@usableFromInline
package final class AsyncValuesLease<Element>: Sendable {
    @usableFromInline package let values: AsyncValues<Element>

    @usableFromInline
    package init(_ values: AsyncValues<Element>) {
        self.values = values
    }

    deinit {
        values.subscription.dispose()
    }
}
