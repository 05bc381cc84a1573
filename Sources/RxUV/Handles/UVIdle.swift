internal import CLibUV

/// What a `UVIdle` calls on each turn of the loop while it runs.
protocol UVIdleTarget: AnyObject {
    /// The loop is about to poll for I/O (without blocking, since an idle
    /// handle runs).
    func idleFired()
}

/// A `uv_idle_t`: while it runs, its callback is called once per turn of
/// the loop, before the loop polls for I/O, and the poll does not block.
/// The loop's work queue runs the work the loop thread queues for itself
/// through one, so that such work needs no wake-up system call
/// (`uv_async_send`'s eventfd write and read). Loop thread only.
// @unchecked Sendable: handed to its loop's thread, where all of it is touched.
final class UVIdle: UVHandle, @unchecked Sendable {
    /// Called on each turn while running; released when the handle closes.
    private var target: UVIdleTarget?
    /// Whether `uv_idle_start` is in effect.
    private(set) var isRunning = false

    init(loop: Loop, isLoopInternal: Bool, target: UVIdleTarget) throws(UVError) {
        self.target = target
        super.init(loop: loop, type: UV_IDLE, kind: .idle, isLoopInternal: isLoopInternal)
        try adopt("uv_idle_init") { uv_idle_init(loop.raw, pointer.assumingMemoryBound(to: uv_idle_t.self)) }
    }

    override func releaseCallbacks() {
        target = nil
    }

    /// Starts calling the target on each turn (`uv_idle_start`); nothing if
    /// it runs already. Throws its error (or `EBADF` on a closed handle).
    func start() throws(UVError) {
        guard !isRunning else { return }
        guard isOpen else { throw UVError(code: .badFileDescriptor, operation: "uv_idle_start") }
        _ = try uvCall("uv_idle_start") { uv_idle_start(pointer.assumingMemoryBound(to: uv_idle_t.self), uvIdleFired) }
        isRunning = true
    }

    /// Stops calling the target (`uv_idle_stop`, which cannot fail);
    /// nothing if it is stopped.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        if isOpen {
            uv_idle_stop(pointer.assumingMemoryBound(to: uv_idle_t.self))
        }
    }

    fileprivate func fire() {
        target?.idleFired()
    }
}

private func uvIdleFired(_ idle: UnsafeMutablePointer<uv_idle_t>?) {
    UVHandle.withOwner(of: idle, as: UVIdle.self) { $0.fire() }
}
