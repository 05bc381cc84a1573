internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// Receives a child process's exit: the `ChildProcess` core that owns it.
protocol UVProcessTarget: AnyObject {
    /// The child exited with `status`, or was killed by `signal` (non-zero).
    /// Loop thread.
    func processExited(status: Int64, signal: Int32)
}

/// A `uv_process_t`: a child started by `uv_spawn`.
///
/// The handle must close only after its exit callback: libuv reaps the child
/// (`waitpid`) only for handles still open, so closing earlier leaves a
/// zombie. Its owner closes it from `processExited`.
final class UVProcess: UVHandle, @unchecked Sendable {
    /// Told of the exit; released when the handle closes.
    var target: UVProcessTarget?
    /// A spawn that failed after the child started: the handle closes at
    /// the exit, with no one to tell.
    private var closesAtExit = false

    /// Spawns the child described by `options` (whose `exit_cb` this sets);
    /// `executable` names it in errors. libuv leaves the handle initialised
    /// when the spawn fails, so it is closed before the error is thrown.
    init(loop: Loop, options: inout uv_process_options_t, executable: String) throws(UVError) {
        super.init(loop: loop, type: UV_PROCESS, kind: .process)
        options.exit_cb = uvProcessExited
        let process = self.process
        do throws(UVError) {
            try withUnsafePointer(to: &options) { (pointer) throws(UVError) in
                try adoptStarting("uv_spawn", address: executable) { uv_spawn(loop.raw, process, pointer) }
            }
        } catch {
            if isOpen {
                // The child runs, but its pipes could not be set up: end it,
                // and let the exit callback close the handle (never before:
                // no one would reap it).
                closesAtExit = true
                _ = uv_process_kill(process, SIGKILL)
            }
            throw error
        }
    }

    private var process: UnsafeMutablePointer<uv_process_t> {
        pointer.assumingMemoryBound(to: uv_process_t.self)
    }

    /// The child's process id.
    var pid: Int32 {
        process.pointee.pid
    }

    override func releaseCallbacks() {
        target = nil
    }

    fileprivate func exited(_ status: Int64, _ signal: Int32) {
        if closesAtExit {
            close()
        } else {
            target?.processExited(status: status, signal: signal)
        }
    }
}

private func uvProcessExited(_ process: UnsafeMutablePointer<uv_process_t>?, _ status: Int64, _ signal: Int32) {
    UVHandle.withOwner(of: process, as: UVProcess.self) { $0.exited(status, signal) }
}
