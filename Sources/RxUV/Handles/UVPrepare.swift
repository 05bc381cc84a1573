internal import CLibUV

/// A `uv_prepare_t`: once started, its callback runs once per turn of the
/// loop, right before the loop polls for I/O. The loop's heartbeat: it
/// counts the loop's turns and notes that the loop is about to wait for
/// I/O (`LoopVitals.turned`); the next callback the loop runs notes its
/// own kind. That is how the watchdog tells a loop that waits or turns
/// from one stuck in a callback. Unreferenced, so it never keeps `run()`
/// running. Loop thread only.
// @unchecked Sendable: handed to its loop's thread, where all of it is touched.
final class UVPrepare: UVHandle, @unchecked Sendable {
    /// The loop's own handle: not counted open and not holding the `Loop`,
    /// which owns it.
    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_PREPARE, kind: .prepare, isLoopInternal: true)
        try adopt("uv_prepare_init") { uv_prepare_init(loop.raw, prepare) }
    }

    private var prepare: UnsafeMutablePointer<uv_prepare_t> {
        pointer.assumingMemoryBound(to: uv_prepare_t.self)
    }

    /// Starts counting turns (`uv_prepare_start`) and lets the loop end
    /// while this handle is the only one active (`uv_unref`).
    func start() throws(UVError) {
        try uvCall("uv_prepare_start") { uv_prepare_start(prepare, uvPrepareFired) }
        uv_unref(handle)
    }
}

private func uvPrepareFired(_ prepare: UnsafeMutablePointer<uv_prepare_t>?) {
    UVHandle.withOwner(of: prepare, as: UVPrepare.self) { $0.loop.vitals.turned() }
}
