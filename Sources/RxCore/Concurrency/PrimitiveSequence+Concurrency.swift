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
    ///   - executorPreference: the Task's executor preference (a RxUV
    ///     `Loop`, for example: `work` then runs on that loop's thread);
    ///     `nil` for the default.
    ///   - work: the `async` closure whose result the `Single` emits; a
    ///     thrown error fails it.
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        executorPreference: (any TaskExecutor)? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        .create { observer in
            // The Task reports once, on its own executor: an Rx observer may
            // be called from any thread, one event at a time.
            let observer = UncheckedSendable(observer)
            return AsyncWork.start(detached: detached, priority: priority, executorPreference: executorPreference) {
                do {
                    let element = try await work()
                    observer.value(.success(element))
                } catch {
                    observer.value(.failure(error))
                }
            }
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

    /// A `Completable` that runs `work` in a Task per subscription and
    /// completes when it returns; a thrown error fails it. Disposing cancels
    /// the Task.
    ///
    /// - Parameters:
    ///   - detached: run `work` in a detached Task.
    ///   - priority: the Task's priority.
    ///   - executorPreference: the Task's executor preference (a RxUV
    ///     `Loop`, for example: `work` then runs on that loop's thread);
    ///     `nil` for the default.
    ///   - work: the `async` closure to run.
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        executorPreference: (any TaskExecutor)? = nil,
        work: @Sendable @escaping () async throws -> Void
    ) -> Completable {
        .create { observer in
            // The Task reports once, on its own executor, as `Single`'s.
            let observer = UncheckedSendable(observer)
            return AsyncWork.start(detached: detached, priority: priority, executorPreference: executorPreference) {
                do {
                    try await work()
                    observer.value(.completed)
                } catch {
                    observer.value(.error(error))
                }
            }
        }
    }
}

/// The Task behind `Single.create(work:)` and `Completable.create(work:)`.
enum AsyncWork {
    /// Starts `operation` in a Task as asked; the returned disposable
    /// cancels it.
    static func start(
        detached: Bool, priority: TaskPriority?, executorPreference: (any TaskExecutor)?,
        _ operation: @Sendable @escaping () async -> Void
    ) -> Disposable {
        let task =
            detached
            ? Task.detached(executorPreference: executorPreference, priority: priority, operation: operation)
            : Task(executorPreference: executorPreference, priority: priority, operation: operation)
        return Disposables.create { task.cancel() }
    }
}
