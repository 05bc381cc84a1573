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
    /// The loop the resource belongs to.
    unowned(unsafe) let loop: Loop
    /// The same loop, held strongly by a resource that keeps its loop alive
    /// (a user's handle, an acceptor), so a loop is never freed under one;
    /// `nil` for the loop's own handles (which would hold it in a cycle), for
    /// requests (which live inside a call on their loop) and for a
    /// `LoopTimer`, which holds its loop in a field of its own.
    let retainedLoop: Loop?

    init(loop: Loop, retainsLoop: Bool) {
        self.loop = loop
        self.retainedLoop = retainsLoop ? loop : nil
    }

    /// Closes the handle or cancels the request, once. Loop thread.
    func release() {}

    /// `.close`: `release()`, asked from another thread.
    final func runOnLoopThread(_ step: HandleStep) {
        switch step {
        case .close: release()
        }
    }
}
