internal import CLibUV

/// Receives an async handle's wake-ups: the loop's work queue.
protocol UVAsyncTarget: AnyObject {
    /// One or more `send()` calls happened since the last wake-up. Loop thread.
    func asyncWokeUp()
}

/// A `uv_async_t`: the one libuv handle whose `uv_async_send` may be called
/// from any thread. libuv coalesces sends: several sends before the loop
/// notices produce one callback, so the callback must drain all queued work.
///
/// `@unchecked Sendable`: `send()` (`uv_async_send`) is the one call made
/// from other threads, and libuv makes it thread-safe; every other method
/// runs on the loop thread, as for every handle.
final class UVAsync: UVHandle, @unchecked Sendable {
    /// Called at each wake-up; released when the handle closes.
    private var target: UVAsyncTarget?

    init(loop: Loop, isLoopInternal: Bool, target: UVAsyncTarget) throws(UVError) {
        self.target = target
        super.init(loop: loop, type: UV_ASYNC, kind: .async, isLoopInternal: isLoopInternal)
        try adopt("uv_async_init") { uv_async_init(loop.raw, pointer.assumingMemoryBound(to: uv_async_t.self), uvAsyncFired) }
    }

    override func releaseCallbacks() {
        target = nil
    }

    /// Wakes the loop; thread-safe.
    func send() {
        uv_async_send(pointer.assumingMemoryBound(to: uv_async_t.self))
    }

    /// Lets the loop exit while this handle is the only active one.
    func unref() {
        uv_unref(handle)
    }

    /// Keeps the loop running while this handle is active.
    func ref() {
        uv_ref(handle)
    }

    fileprivate func fire() {
        target?.asyncWokeUp()
    }
}

private func uvAsyncFired(_ async: UnsafeMutablePointer<uv_async_t>?) {
    UVHandle.withOwner(of: async, as: UVAsync.self) { $0.fire() }
}
