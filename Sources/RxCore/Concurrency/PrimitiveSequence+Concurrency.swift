extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the element; throws the failure. Cancelling the Task disposes
    /// the subscription and throws `CancellationError`.
    ///
    /// Subscribes on the caller's executor and resumes there
    /// (`nonisolated(nonsending)`): an actor (one on a `Loop` too) awaits a
    /// `Single` it made, which is not `Sendable`, without a hop.
    nonisolated(nonsending) public var value: Element {
        get async throws {
            try await AsyncOneShot<Element>.await { resolve in
                self.subscribe(onSuccess: { resolve(.success($0)) }, onFailure: { resolve(.failure($0)) })
            }
        }
    }

    /// A `Single` that runs `work` in a Task per subscription and succeeds
    /// with its result. Disposing cancels the Task.
    ///
    /// - Parameters:
    ///   - detached: run `work` in a detached Task.
    ///   - priority: the Task's priority.
    ///   - work: the `async` closure whose result the `Single` emits; a
    ///     thrown error fails it.
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        .create { observer in
            // The Task reports once, on its own executor: an Rx observer may
            // be called from any thread, one event at a time.
            let observer = UncheckedSendable(observer)
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    observer.value(.success(element))
                } catch {
                    observer.value(.failure(error))
                }
            }
            let task = detached ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Awaits the element, or `nil` if the `Maybe` completes empty; throws
    /// the error. Cancelling the Task disposes the subscription and throws
    /// `CancellationError`. Subscribes on the caller's executor and resumes
    /// there, as `Single`'s `value`.
    nonisolated(nonsending) public var value: Element? {
        get async throws {
            try await AsyncOneShot<Element?>.await { resolve in
                self.subscribe(
                    onSuccess: { resolve(.success($0)) },
                    onError: { resolve(.failure($0)) },
                    onCompleted: { resolve(.success(nil)) }
                )
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits completion; throws the error. Cancelling the Task disposes the
    /// subscription and throws `CancellationError`. Subscribes on the
    /// caller's executor and resumes there, as `Single`'s `value`.
    nonisolated(nonsending) public var value: Void {
        get async throws {
            try await AsyncOneShot<Void>.await { resolve in
                self.subscribe(onCompleted: { resolve(.success(())) }, onError: { resolve(.failure($0)) })
            }
        }
    }
}
