/// One piece of work for a loop's thread: the one item the loop's queue
/// carries (`LoopWorkQueue`), whatever door it came through.
///
/// A step for a loop-confined object travels as the object and its step,
/// packed (`PackedLoopStep`), with no closure: a subscription opening or
/// closing what it owns, a stream closing, a server shard taking a
/// connection. The queue does not know the step's type; the object does,
/// and unpacks it (`LoopConfined.runOnLoopThread(packed:)`). A closure is
/// for work whose type the queue cannot know (`Loop.execute`, a user's
/// work).
// @unchecked Sendable: a step's target is touched only on its loop thread,
// where the item runs; a closure is `@Sendable`.
enum LoopWork: @unchecked Sendable {
    /// A step of a loop-confined object, packed by the object's `Step`.
    case step(any LoopConfined, PackedLoopStep)
    /// A closure (`Loop.execute`).
    case closure(@Sendable () -> Void)
    /// A job of Swift concurrency (`Loop.enqueue`): an actor's whose
    /// executor is the loop (`isolated`), or a task's that prefers it. The
    /// loop is not retained: the loop owns its queue.
    case job(UnownedJob, Unmanaged<Loop>, isolated: Bool)

    /// What the loop runs while it does this work.
    @inline(__always)
    var activity: LoopActivity {
        switch self {
        case .step: .step
        case .closure: .closure
        case .job: .job
        }
    }

    /// Does the work. Loop thread.
    @inline(__always)
    func run() {
        switch self {
        case .step(let target, let step):
            target.runOnLoopThread(packed: step)
        case .closure(let work):
            work()
        case .job(let job, let loop, let isolated):
            loop.takeUnretainedValue().run(job, isolated: isolated)
        }
    }
}
