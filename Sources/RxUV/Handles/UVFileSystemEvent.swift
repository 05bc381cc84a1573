internal import CLibUV

/// Receives a file-system event handle's events: the subscription that
/// owns it.
protocol UVFileSystemEventTarget: AnyObject {
    /// `name` (relative to a watched directory; `nil` when libuv has none)
    /// had `events` (`UV_RENAME`, `UV_CHANGE` bits), or the watch failed
    /// (`status` < 0). Loop thread.
    func fileSystemEvent(name: String?, events: Int32, status: Int32)
}

/// A `uv_fs_event_t`: inotify on Linux, watching one file or directory.
final class UVFileSystemEvent: UVHandle, @unchecked Sendable {
    /// Told of each event; released when the handle closes.
    var target: UVFileSystemEventTarget?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_FS_EVENT, kind: .fsEvent)
        try adopt("uv_fs_event_init") { uv_fs_event_init(loop.raw, event) }
    }

    private var event: UnsafeMutablePointer<uv_fs_event_t> {
        pointer.assumingMemoryBound(to: uv_fs_event_t.self)
    }

    /// Starts watching `path` (`uv_fs_event_start`). inotify's watch limit
    /// shows as `ENOSPC`, which reads as a full disk: the error says what it
    /// is instead.
    func start(_ path: String) throws(UVError) {
        do throws(UVError) {
            try uvCall("uv_fs_event_start", address: path) { uv_fs_event_start(event, uvFileSystemEvent, path, 0) }
        } catch  where error.code == .noSpaceLeft {
            throw UVError(
                code: error.code, operation: "uv_fs_event_start",
                address: "\(path): the inotify watch limit is reached (fs.inotify.max_user_watches), not a full disk")
        }
    }

    override func releaseCallbacks() {
        target = nil
    }

    fileprivate func deliver(_ name: String?, _ events: Int32, _ status: Int32) {
        target?.fileSystemEvent(name: name, events: events, status: status)
    }
}

private func uvFileSystemEvent(_ handle: UnsafeMutablePointer<uv_fs_event_t>?, _ name: UnsafePointer<CChar>?, _ events: Int32, _ status: Int32) {
    UVHandle.withOwner(of: handle, as: UVFileSystemEvent.self) { $0.deliver(name.map { String(cString: $0) }, events, status) }
}
