import RxCore

extension Loop: SerialExecutor, TaskExecutor {
    /// Runs `job` on the loop thread: an actor whose `unownedExecutor` is
    /// this loop's (`asUnownedSerialExecutor()`), a task that prefers this
    /// loop (`Task(executorPreference:)`, `withTaskExecutorPreference`).
    ///
    /// The job travels in the loop's queue as one typed item, with no
    /// closure and no allocation, and runs in order with the loop's other
    /// work, during the loop's next iteration (never inside `enqueue`,
    /// also when called on the loop thread). `close()` runs the jobs queued
    /// before it. A job enqueued on a closed loop has no loop thread left:
    /// it is reported (to the loop's logger, `Loop.logger`) and run
    /// at once on the calling thread, so that its task still ends and frees
    /// what it holds; jobs run that way are no longer serialised, so close a
    /// loop only when no actor or task still needs it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !queue.enqueue(.job(unowned, Unmanaged.passUnretained(self)), onLoopThread: isOnLoopThread) {
            report(UVError(code: UVError.Code.invalidArgument, operation: "Loop.enqueue (the loop is closed: an async job runs on the calling thread)"), ReportContext(loop: self))
            unowned.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// This loop as an actor's executor: `nonisolated var unownedExecutor:
    /// UnownedSerialExecutor { loop.asUnownedSerialExecutor() }`.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    /// This loop as a task executor, for `Task(executorPreference:)`.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Stops the program unless called on the loop thread: what
    /// `assumeIsolated` asks when it cannot tell from the running task.
    public func checkIsolated() {
        precondition(isOnLoopThread, "Loop: not on the loop's thread")
    }

    /// `true` for the same loop: one thread, one isolation domain.
    public func isSameExclusiveExecutionContext(other: Loop) -> Bool {
        self === other
    }
}
