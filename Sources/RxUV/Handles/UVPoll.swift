internal import CLibUV

/// Receives a poll handle's readiness: the subscription that owns it.
protocol UVPollTarget: AnyObject {
    /// The descriptor is readable (`status` 0), or polling failed. Loop
    /// thread.
    func pollReady(status: Int32)
    /// The handle closed, whoever closed it (`Loop.closeAll` too): the owner
    /// lets go of the descriptor. Loop thread.
    func pollClosed()
}

/// A `uv_poll_t` watching a descriptor that RxUV reads itself: a server's
/// listening socket, whose connections it accepts (`accept`) to hand them
/// to other loops.
final class UVPoll: UVHandle, @unchecked Sendable {
    /// Told of each readiness; released when the handle closes.
    var target: UVPollTarget?

    /// Watches `descriptor` (`uv_poll_init`), which stays the caller's: the
    /// handle does not close it.
    init(loop: Loop, descriptor: Int32) throws(UVError) {
        super.init(loop: loop, type: UV_POLL, kind: .poll)
        try adopt("uv_poll_init") { uv_poll_init(loop.raw, poll, descriptor) }
    }

    private var poll: UnsafeMutablePointer<uv_poll_t> {
        pointer.assumingMemoryBound(to: uv_poll_t.self)
    }

    /// Starts watching for readability (`uv_poll_start`).
    func startReading() throws(UVError) {
        try uvCall("uv_poll_start") { uv_poll_start(poll, Int32(UV_READABLE.rawValue), uvPollReady) }
    }

    /// Stops watching without closing (`uv_poll_stop`).
    func stopReading() {
        uv_poll_stop(poll)
    }

    override func releaseCallbacks() {
        let target = self.target
        self.target = nil
        target?.pollClosed()
    }

    fileprivate func ready(_ status: Int32) {
        target?.pollReady(status: status)
    }
}

private func uvPollReady(_ handle: UnsafeMutablePointer<uv_poll_t>?, _ status: Int32, _ events: Int32) {
    UVHandle.withOwner(of: handle, as: UVPoll.self) { $0.ready(status) }
}
