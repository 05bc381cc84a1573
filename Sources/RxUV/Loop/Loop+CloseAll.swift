internal import CLibUV

extension Loop {
    /// Closes every handle open on this loop (`uv_walk`, then `uv_close`
    /// on each): for a tool that just wants `run()` to return. Subscriptions
    /// that owned those handles get no further event (and no terminal one).
    /// A child process that has not exited is left open: closing it would
    /// leave a zombie, so the loop runs until it exits. The loop's own
    /// wake-up handle stays. Returns the number of handles it closed. Safe
    /// from any thread: elsewhere it runs on the loop thread, later, and
    /// returns 0.
    @discardableResult
    public func closeAll() -> Int {
        guard isOnLoopThread else {
            execute { [self] in closeAll() }
            return 0
        }
        var handles: [UVHandle] = []
        withUnsafeMutablePointer(to: &handles) { list in
            uv_walk(raw, uvCollectHandle, list)
        }
        var closed = timerQueue?.discardAll() ?? 0
        for handle in handles where handle.isOpen && !handle.isLoopInternal && handle.kind != .process {
            handle.close()
            closed += 1
        }
        return closed
    }
}

/// `uv_walk`'s callback for `Loop.closeAll`: collects the owners of the
/// handles RxUV opened.
private func uvCollectHandle(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ list: UnsafeMutableRawPointer?) {
    guard let handle, let data = handle.pointee.data, uv_is_closing(handle) == 0 else { return }
    let owner = Unmanaged<UVHandle>.fromOpaque(data).takeUnretainedValue()
    list!.assumingMemoryBound(to: [UVHandle].self).pointee.append(owner)
}
