/// The steps of a child process's loop-thread side (`ProcessCore`), asked
/// from any thread by its `ChildProcess`.
enum ProcessCoreStep: UInt8, LoopStep {
    /// The `ChildProcess` was released (tear the child down if it runs).
    case childReleased
    /// A subscription started reading an output pipe.
    case outputStarted
    /// A subscription reading an output pipe ended.
    case outputEnded
}
