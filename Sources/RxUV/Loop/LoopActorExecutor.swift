/// A loop as the serial executor of actors (`Loop.asUnownedSerialExecutor()`):
/// the face the runtime uses for code isolated to an actor on the loop, apart
/// from the loop itself, which the runtime uses as a task's executor
/// preference.
///
/// Both faces queue a job as one typed item in the loop's queue and run it
/// on the loop thread; they differ in what the job runs as, because the
/// runtime goes on without a hop only where the running job's executors
/// match the code's: the same serial executor, and the same task executor
/// as the task prefers.
///
/// - A task that prefers no executor (`Task { }`, an actor's own work)
///   runs its actor code isolated to this face: every `await` from code
///   on one actor of this loop to code on another, or to code that
///   inherits the caller's isolation, goes on without a hop. (A
///   continuation resumes on the generic executor, the global one for such
///   a task, and comes back through this face.)
/// - A task that prefers the loop (`Task(executorPreference: loop)`) runs
///   code of no actor on the loop as its task executor, with no hop. When
///   it calls an actor on the loop, the job that comes through this face
///   while the loop runs that task's job runs the same way, on the loop as
///   the task executor: one hop into the actor and none back, where
///   isolated to this face the way back would hop again. (Within such a
///   call, each `await` hops once more.)
// @unchecked Sendable: `loop` is set once, before the loop is shared.
final class LoopActorExecutor: SerialExecutor, @unchecked Sendable {
    /// The loop whose face this is, set as the loop is made. The loop owns
    /// the face.
    unowned(unsafe) var loop: Loop!

    init() {}

    /// Queues `job` to run on the loop thread: isolated to this executor,
    /// or on the loop as the task executor when it comes from a job of a
    /// task that prefers the loop (see the type). See `Loop.enqueue(_:)`.
    func enqueue(_ job: consuming ExecutorJob) {
        // From a job of a task that prefers the loop: that task, calling
        // the actor.
        let fromPreferringTask = loop.isOnLoopThread && loop.runsTaskExecutorJob
        loop.enqueue(UnownedJob(job), isolated: !fromPreferringTask)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    /// Stops the program unless called on the loop thread.
    func checkIsolated() {
        precondition(loop.isOnLoopThread, "Loop: not on the loop's thread")
    }

    /// `true` for the same loop: one thread, one isolation domain.
    func isSameExclusiveExecutionContext(other: LoopActorExecutor) -> Bool {
        self === other
    }
}
