/// The sink of a source that emits one event per scheduled step: `of`,
/// `from`, `range`, `repeatElement`, `generate`.
///
/// `step()` emits exactly what one recursive step of the RxSwift source emits
/// (one element, or the terminal event followed by `dispose()`), and returns
/// `true` when another step should follow.
protocol SynchronousSourceSink: AnyObject {
    /// Emits one step's event; `true` when another step should follow.
    func step() -> Bool
    /// `true` once the sink has been disposed.
    var isDisposed: Bool { get }
}

extension SynchronousSourceSink {
    /// Runs the steps on `scheduler`, one recursive step at a time.
    ///
    /// On `CurrentThreadScheduler` the steps run in a loop instead: after each
    /// step, if nothing else waits in the trampoline queue, the next step runs
    /// at once (scheduling it would enqueue it and the trampoline would dequeue
    /// it right away); if other work is queued, the next step is enqueued behind
    /// it, exactly where RxSwift's recursive step would go. The visible order is
    /// therefore RxSwift's, without allocating per element.
    ///
    /// - Returns: the disposable that cancels the pending steps.
    func drive(on scheduler: ImmediateSchedulerType) -> Disposable {
        if scheduler is CurrentThreadScheduler {
            return CurrentThreadScheduler.instance.schedule(self) { sink in
                sink.runOnTrampoline()
                return Disposables.create()
            }
        }
        return scheduler.scheduleRecursive(()) { _, recurse in
            if self.step() {
                recurse(())
            }
        }
    }

    private func runOnTrampoline() {
        while !isDisposed {
            guard step() else { return }
            if CurrentThreadScheduler.hasQueuedActions {
                // The disposable is not kept: a disposed sink stops at the
                // `isDisposed` check when the queued step runs.
                _ = CurrentThreadScheduler.instance.schedule(self) { sink in
                    sink.runOnTrampoline()
                    return Disposables.create()
                }
                return
            }
        }
    }
}
