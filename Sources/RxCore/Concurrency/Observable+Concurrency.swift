extension ObservableConvertibleType {
    /// The elements as an `AsyncSequence` that throws the error: iterate
    /// with `for try await`.
    ///
    /// Each iteration subscribes when it asks for its first element; it ends
    /// at completion and throws the error. Elements are buffered while the
    /// consumer is busy. Ending the iteration early (`break`, `return`, a
    /// thrown error) disposes the subscription.
    ///
    /// Cancellation follows RxSwift's rules:
    /// - An element, the completion or the error that has already arrived is
    ///   handed out even in a cancelled Task: `Observable.just(1).values`
    ///   gives 1 there (a synchronous source emits while it is subscribed).
    /// - When the iteration would have to wait and its Task is cancelled,
    ///   before or while it waits, it throws `CancellationError` and disposes
    ///   the subscription: a loop over a source that has not emitted yet, in
    ///   a cancelled Task, throws `CancellationError`; it does not just end.
    public var values: ObservableValues<Element> {
        ObservableValues(source: asObservable())
    }
}

/// The elements of an Observable as an `AsyncSequence`: see
/// ``ObservableConvertibleType/values``.
public struct ObservableValues<Element>: AsyncSequence {
    /// The error the iteration throws: the source's, or `CancellationError`.
    public typealias Failure = any Error

    @usableFromInline let source: Observable<Element>
    @usableFromInline let demand: AsyncValuesDemand<Element>?

    init(source: Observable<Element>) {
        self.source = source
        self.demand = nil
    }

    /// The elements of `source`, buffered up to what `demand` allows: a
    /// bounded `values`, for a source that can pause.
    package init(source: Observable<Element>, demand: AsyncValuesDemand<Element>) {
        self.source = source
        self.demand = demand
    }

    /// An iteration: subscribes to the source on its first `next()`.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(lease: AsyncValuesLease(AsyncValues(source, demand: demand)))
    }

    /// Iterates one subscription's elements.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let lease: AsyncValuesLease<Element>

        @usableFromInline
        init(lease: AsyncValuesLease<Element>) {
            self.lease = lease
        }

        /// The next element; `nil` after completion. Throws the source's
        /// error, or `CancellationError` when it would wait in a cancelled
        /// Task. Runs on the caller's executor and resumes there, so an
        /// iteration on an actor (or a `Loop`) takes no hop per element.
        @inlinable
        nonisolated(nonsending) public mutating func next() async throws -> Element? {
            try await lease.values.next()
        }

        /// The next element, on `actor`'s executor: what `for try await`
        /// calls. See `next()`. On an actor, the wait itself stays on the
        /// actor (no hop to the generic executor and back to register it).
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            if actor == nil {
                return try await lease.values.next()
            }
            return try await lease.values.next(isolation: actor)
        }
    }
}

extension InfallibleType {
    /// The elements as an `AsyncSequence` that cannot throw.
    ///
    /// Ending the iteration early (break, or cancelling the Task) disposes
    /// the subscription.
    public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = self.subscribe(
                onNext: { element in
                    // The element goes to the iterating task: Rx's contract
                    // lets an element cross threads (as `observe(on:)` does).
                    nonisolated(unsafe) let element = element
                    continuation.yield(element)
                },
                onCompleted: { continuation.finish() }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}

extension AsyncSequence {
    /// The sequence as an `Observable`: each subscription iterates it in a
    /// new Task, emitting its elements, then completion or its error.
    /// Disposing cancels the Task. Events arrive on the Task's executor.
    ///
    /// The sequence's type (and its iterator's) must be usable from another
    /// task (`SendableMetatype`), which every concrete type is.
    ///
    /// - Parameter priority: the priority of each subscription's Task.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> where Self: SendableMetatype, AsyncIterator: SendableMetatype {
        Observable.create { observer in
            // Each subscription iterates the sequence in its own Task and
            // reports from there, one event at a time, as an Rx source may
            // from any thread; neither is touched here again.
            let sequence = UncheckedSendable(self)
            let observer = UncheckedSendable(observer)
            let task = Task(priority: priority) {
                do {
                    for try await element in sequence.value {
                        observer.value.onNext(element)
                    }
                    observer.value.onCompleted()
                } catch {
                    if !Task.isCancelled {
                        observer.value.onError(error)
                    }
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
