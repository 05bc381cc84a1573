extension ObservableConvertibleType {
    /// The elements as an `AsyncThrowingSequence`: iterate with `for try await`.
    ///
    /// Subscribes when iteration starts; the sequence ends at completion and
    /// throws the error. Elements are buffered while the consumer is busy.
    /// Ending the iteration early (break, or cancelling the Task) disposes
    /// the subscription.
    public var values: AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream { continuation in
            let subscription = self.asObservable().subscribe(
                onNext: { element in
                    // The element goes to the iterating task: Rx's contract
                    // lets an element cross threads (as `observe(on:)` does).
                    nonisolated(unsafe) let element = element
                    continuation.yield(element)
                },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() }
            )
            continuation.onTermination = { _ in subscription.dispose() }
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
    public func asObservable() -> Observable<Element> where Self: SendableMetatype, AsyncIterator: SendableMetatype {
        Observable.create { observer in
            // Each subscription iterates the sequence in its own Task and
            // reports from there, one event at a time, as an Rx source may
            // from any thread; neither is touched here again.
            let sequence = UncheckedSendable(self)
            let observer = UncheckedSendable(observer)
            let task = Task {
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
