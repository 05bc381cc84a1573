/// One piece of work for a loop's thread: the one item the loop's queue
/// carries (`LoopWorkQueue`), whatever door it came through.
///
/// A step for a loop-confined object travels as the object and the step,
/// with no closure: a subscription opening or closing what it owns, a
/// stream closing, a server shard taking a connection. A closure is for
/// work whose type the queue cannot know (`Loop.execute`, a user's work).
// @unchecked Sendable: a step's target is touched only on its loop thread,
// where the item runs; a closure is `@Sendable`.
enum LoopWork: @unchecked Sendable {
    /// A step of a loop-confined object.
    case step(any LoopConfined, LoopStep)
    /// A closure (`Loop.execute`).
    case closure(@Sendable () -> Void)
    /// A job of Swift concurrency (`Loop.enqueue`): an actor's whose
    /// executor is the loop (`isolated`), or a task's that prefers it. The
    /// loop is not retained: the loop owns its queue.
    case job(UnownedJob, Unmanaged<Loop>, isolated: Bool)

    /// Does the work. Loop thread.
    @inline(__always)
    func run() {
        switch self {
        case .step(let target, let step):
            target.runOnLoopThread(step)
        case .closure(let work):
            work()
        case .job(let job, let loop, let isolated):
            loop.takeUnretainedValue().run(job, isolated: isolated)
        }
    }
}

/// What a loop-confined object is asked to do on its thread: the typed
/// steps that travel in a `LoopWork` without a closure. Each object takes
/// the steps its documentation names.
package enum LoopStep: Sendable, Equatable {
    /// Open what a subscription owns (`HandleSink.start`).
    case open
    /// Release: a subscription's handle or request, an acceptor, a handle
    /// whose owner went away, a UDP socket.
    case close
    /// Close a stream as `mode` says (`ByteStream.close(_:)`).
    case closeStream(StreamCloseMode)
    /// Hold a stream's reading back or let it go (`ByteStream.holdReading(_:)`).
    case holdReading(Bool)
    /// A server shard: open an accepted descriptor here (the number of an
    /// `OwnedDescriptor` handed over for the trip, owned again on arrival).
    case adopt(Int32)
    /// A server shard: a handler ended (its end may come on another thread).
    case finish(UInt64)
    /// A server shard: the server drains; tell the handlers.
    case quiesce
    /// A server shard: reset what is left (a drain's deadline, a stop).
    case reset
    /// A server: its connection count changed.
    case countChanged
    /// A server: its drain is done.
    case countsDrained
    /// A child process: its `ChildProcess` was released.
    case childReleased
    /// A child process: a subscription started reading an output pipe.
    case outputStarted
    /// A child process: a subscription reading an output pipe ended.
    case outputEnded
}

/// An object confined to its loop's thread, which other threads reach
/// through the loop's one door (`Loop.enter`) with a `LoopStep`. Its
/// loop-thread methods say so in code (`assertConfined()`), checked in
/// debug builds, as `LoopBound` checks loop-thread state.
package protocol LoopConfined: AnyObject {
    /// The loop whose thread the object belongs to.
    var loop: Loop { get }

    /// Does `step`. Loop thread.
    func runOnLoopThread(_ step: LoopStep)
}

extension LoopConfined {
    /// Debug builds: stops the program when called off the object's loop
    /// thread. Release builds: nothing.
    @inline(__always)
    package func assertConfined(_ function: StaticString = #function) {
        assert(loop.isOnLoopThread, "\(Self.self).\(function) called off its loop's thread")
    }
}
