// OperationQueue is in full Foundation only (with ICU), not in
// FoundationEssentials: Documentation/Benchmarks/2026-11-24-third-performance-round.md, "Foundation in RxCore?".
import Foundation

/// RxSwift's scheduler on an `OperationQueue`: each action is one
/// `BlockOperation` added to the queue, with the scheduler's priority, so
/// the queue's `maxConcurrentOperationCount` sets how many run at once and
/// its priorities which runs first. Use it for a bigger chunk of background
/// work whose concurrency the queue tunes; `observe(on:)` still delivers one
/// event at a time on it.
///
/// It is an `ImmediateSchedulerType`, as in RxSwift: no clock, so no
/// delayed or periodic work (use `ConcurrentDispatchQueueScheduler` for
/// that). Recursive scheduling (`scheduleRecursive`) adds one operation per
/// step.
public final class OperationQueueScheduler: ImmediateSchedulerType, Sendable {
    /// The queue that runs the actions.
    public let operationQueue: OperationQueue
    /// The priority given to every operation this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler adding its actions to `operationQueue` with
    /// `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation that runs `action(state)` on the queue.
    ///
    /// - Returns: a disposable that keeps the action from running if its
    ///   operation has not started (the operation still runs, and returns at
    ///   once, as in RxSwift), and otherwise disposes what the action
    ///   returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // The state goes to the action on the queue: the scheduler contract.
        let state = UncheckedSendable(state)
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state.value))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return cancel
    }
}
