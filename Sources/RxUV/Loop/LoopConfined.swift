/// An object confined to its loop's thread, which other threads reach
/// through the loop's one door (`Loop.enter(_:_:)`) with a step of its own
/// vocabulary, `Step`: a subscription's (`SubscriptionStep`), a handle's
/// (`HandleStep`), a stream's (`StreamStep`), a server's and its shards'
/// (`ServerStep`, `ServerShardStep`), a child process's
/// (`ProcessCoreStep`), or a product's own. The door takes only the
/// target's own steps, checked where it is called, and `runOnLoopThread(_:)`
/// switches over all of them.
///
/// Its loop-thread methods say so in code (`assertConfined()`), checked in
/// debug builds, as `LoopBound` checks loop-thread state.
package protocol LoopConfined: AnyObject {
    /// What the object can be asked to do on its loop's thread.
    associatedtype Step: LoopStep

    /// The loop whose thread the object belongs to.
    var loop: Loop { get }

    /// Does `step`. Loop thread.
    func runOnLoopThread(_ step: Step)

    /// Unpacks `step` and does it: how the loop's queue, which does not
    /// know `Step`, hands a queued step over. Loop thread. The default
    /// (`Step(packed:)`, then `runOnLoopThread(_:)`) is the one to use.
    func runOnLoopThread(packed step: PackedLoopStep)
}

extension LoopConfined {
    /// Unpacks `step` with `Step(packed:)` and does it. Loop thread.
    @inline(__always)
    package func runOnLoopThread(packed step: PackedLoopStep) {
        runOnLoopThread(Step(packed: step))
    }

    /// Debug builds: stops the program when called off the object's loop
    /// thread. Release builds: nothing.
    @inline(__always)
    package func assertConfined(_ function: StaticString = #function) {
        assert(loop.isOnLoopThread, "\(Self.self).\(function) called off its loop's thread")
    }
}
