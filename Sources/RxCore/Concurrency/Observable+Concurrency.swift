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
                onNext: { continuation.yield($0) },
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
                onNext: { continuation.yield($0) },
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
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in
            let task = Task {
                do {
                    for try await element in self {
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch {
                    if !Task.isCancelled {
                        observer.onError(error)
                    }
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
