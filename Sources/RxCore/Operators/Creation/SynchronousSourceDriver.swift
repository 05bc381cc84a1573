/// The sink of a source that emits one event per scheduled step: `of`,
/// `from`, `range`, `repeatElement`, `generate`.
///
/// `step(_:)` emits exactly what one recursive step of the RxSwift source
/// emits (one element, or the terminal event followed by `dispose()`) and
/// returns `true` when another step should follow. The state between steps is
/// passed along (as RxSwift passes its recursion state), not stored in the
/// sink, so the loop below runs on a local variable.
///
/// Each sink writes `loop(_:)` itself, as
///
///     let queue = CurrentThreadScheduler.queuedActionsProbe
///     while !isDisposed {
///         guard step(&state) else { return false }
///         if queue.hasQueuedActions { return true }
///     }
///     return false
///
/// so that `step` is inlined into it and the per-element work is a plain loop
/// (a shared generic loop could not be specialised for each sink).
///
/// Sinks are `Sendable` (see `Sink`): a step may run on the scheduler's thread.
protocol SynchronousSourceSink: AnyObject, Sendable {
    /// What one step needs to know from the previous one.
    associatedtype State

    /// Emits one step's event; `true` when another step should follow.
    func step(_ state: inout State) -> Bool

    /// Runs steps while the sink is not disposed and nothing else waits in the
    /// trampoline queue. Returns `true` when it stopped because other work is
    /// queued: `state` then holds the next step's state.
    func loop(_ state: inout State) -> Bool
}

extension SynchronousSourceSink {
    /// Runs the steps on `scheduler`, one recursive step at a time, starting
    /// from `initialState`.
    ///
    /// On `CurrentThreadScheduler` the steps run in a loop instead: after each
    /// step, if nothing else waits in the trampoline queue, the next step runs
    /// at once (scheduling it would enqueue it and the trampoline would dequeue
    /// it right away); if other work is queued, the next step is enqueued behind
    /// it, exactly where RxSwift's recursive step would go. The visible order is
    /// therefore RxSwift's, without allocating per element.
    ///
    /// - Returns: the disposable that cancels the pending steps.
    func drive(_ initialState: State, on scheduler: ImmediateSchedulerType) -> Disposable {
        if scheduler is CurrentThreadScheduler {
            return CurrentThreadScheduler.instance.schedule(initialState) { state in
                self.resume(state)
                return Disposables.create()
            }
        }
        return scheduler.scheduleRecursive(initialState) { state, recurse in
            var state = state
            if self.step(&state) {
                recurse(state)
            }
        }
    }

    private func resume(_ state: State) {
        var state = state
        if loop(&state) {
            // The disposable is not kept: a disposed sink stops at the
            // `isDisposed` check of `loop` when the queued step runs.
            _ = CurrentThreadScheduler.instance.schedule(state) { state in
                self.resume(state)
                return Disposables.create()
            }
        }
    }
}
