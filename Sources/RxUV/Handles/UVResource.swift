/// What the bridge owns on a loop and must give back on that loop's
/// thread: a handle (`UVHandle`), which `release()` closes; a request
/// libuv can cancel (`UVRequest`), which `release()` cancels; an acceptor
/// (`Acceptor`), which `release()` stops. An owner holds one in an
/// `Owned`, the one way to own one.
///
/// It is loop-confined: another thread reaches it through the loop's one
/// door with `.close` (`Loop.enter`), which is what dropping an `Owned`
/// off the loop thread does.
// @unchecked Sendable: the reference may travel to the loop thread (an
// owner dropped elsewhere sends its resource there to be released); what
// it holds is touched on that thread only, as `assertConfined()` checks.
class UVResource: LoopConfined, @unchecked Sendable {
    /// The loop the resource belongs to (not retained here: a handle keeps
    /// its loop alive itself, a request lives inside a call on that loop).
    unowned(unsafe) let loop: Loop

    init(loop: Loop) {
        self.loop = loop
    }

    /// Closes the handle or cancels the request, once. Loop thread.
    func release() {}

    /// `.close`: `release()`, asked from another thread.
    final func runOnLoopThread(_ step: LoopStep) {
        assert(step == .close, "\(Self.self): no step \(step)")
        release()
    }
}
