internal import CLibUV

/// A `uv_check_t`: once started, its callback runs once per turn of the
/// loop, right after the loop polled for I/O. The loop's heartbeat: it
/// counts the loop's turns (`LoopVitals.iterations`), which is how the
/// watchdog and `loop.rx.health` tell a loop that turns from one that is
/// stuck. Unreferenced, so it never keeps `run()` running. Loop thread only.
// @unchecked Sendable: handed to its loop's thread, where all of it is touched.
final class UVCheck: UVHandle, @unchecked Sendable {
    /// The loop's own handle: not counted open and not holding the `Loop`,
    /// which owns it.
    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_CHECK, kind: .check, isLoopInternal: true)
        try adopt("uv_check_init") { uv_check_init(loop.raw, check) }
    }

    private var check: UnsafeMutablePointer<uv_check_t> {
        pointer.assumingMemoryBound(to: uv_check_t.self)
    }

    /// Starts counting turns (`uv_check_start`) and lets the loop end while
    /// this handle is the only one active (`uv_unref`).
    func start() throws(UVError) {
        try uvCall("uv_check_start") { uv_check_start(check, uvCheckFired) }
        uv_unref(handle)
    }
}

private func uvCheckFired(_ check: UnsafeMutablePointer<uv_check_t>?) {
    UVHandle.withOwner(of: check, as: UVCheck.self) { $0.loop.vitals.turned() }
}
