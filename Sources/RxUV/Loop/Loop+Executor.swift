import RxCore

extension Loop: SerialExecutor, TaskExecutor {
    /// Runs `job` on the loop thread: an actor whose `unownedExecutor` is
    /// this loop's (`asUnownedSerialExecutor()`), a task that prefers this
    /// loop (`Task(executorPreference:)`, `withTaskExecutorPreference`).
    ///
    /// The job travels in the loop's queue as one item and runs in order
    /// with the loop's other
    /// work, during the loop's next iteration (never inside `enqueue`,
    /// also when called on the loop thread). `close()` runs the jobs queued
    /// before it. A job enqueued on a closed loop has no loop thread left:
    /// it is reported (to the loop's logger, `Loop.logger`) and run
    /// at once on the calling thread, so that its task still ends and frees
    /// what it holds; jobs run that way are no longer serialised, so close a
    /// loop only when no actor or task still needs it.
    ///
    /// A job enqueued here runs on the loop as its task executor (a task
    /// that prefers this loop, running code of no actor); an actor's job
    /// comes through the executor that `asUnownedSerialExecutor()` returns
    /// (see `LoopActorExecutor` for how it runs).
    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job), isolated: false)
    }

    /// Queues `job` as one typed item, to run isolated to the actor face
    /// (`isolated`) or on the loop as the task executor. On a closed loop,
    /// reports and runs it at once.
    func enqueue(_ job: UnownedJob, isolated: Bool) {
        if !queue.enqueue(.job(job, Unmanaged.passUnretained(self), isolated: isolated), onLoopThread: isOnLoopThread) {
            report(UVError(code: UVError.Code.invalidArgument, operation: "Loop.enqueue (the loop is closed: an async job runs on the calling thread)"), ReportContext(loop: self))
            // On the calling thread, which may be any: none of the loop
            // thread's bookkeeping.
            if isolated {
                job.runSynchronously(on: actorExecutor.asUnownedSerialExecutor())
            } else {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// Runs `job` on the loop thread: isolated to the actor face, or on the
    /// loop as the task executor (its serial executor the generic one),
    /// which `runsTaskExecutorJob` says meanwhile.
    @inline(__always)
    func run(_ job: UnownedJob, isolated: Bool) {
        jobsRun &+= 1
        if isolated {
            job.runSynchronously(on: actorExecutor.asUnownedSerialExecutor())
        } else {
            let outer = runsTaskExecutorJob
            runsTaskExecutorJob = true
            job.runSynchronously(on: asUnownedTaskExecutor())
            runsTaskExecutorJob = outer
        }
    }

    /// This loop as an actor's executor: `nonisolated var unownedExecutor:
    /// UnownedSerialExecutor { loop.asUnownedSerialExecutor() }`. The
    /// actor's code runs on the loop thread, and an `await` from one actor
    /// on this loop to another (or to code that inherits the caller's
    /// isolation) goes on without a hop. All actors on one loop share its
    /// isolation domain, as they share its thread.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        actorExecutor.asUnownedSerialExecutor()
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
