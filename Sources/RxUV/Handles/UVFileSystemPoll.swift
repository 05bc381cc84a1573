internal import CLibUV

/// Receives a file-system poll handle's reports: the subscription that owns
/// it.
protocol UVFileSystemPollTarget: AnyObject {
    /// The status of the polled path changed from `previous` to `current`
    /// (`status` 0), or polling it failed (`status` < 0; `UV_ENOENT` when it
    /// is missing). Loop thread.
    func fileSystemPolled(status: Int32, previous: FileStatus, current: FileStatus)
}

/// A `uv_fs_poll_t`: `stat` of one path at an interval, on libuv's thread
/// pool, reporting changes. Works where inotify does not (NFS, FUSE).
final class UVFileSystemPoll: UVHandle, @unchecked Sendable {
    /// Told of each change; released when the handle closes.
    var target: UVFileSystemPollTarget?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_FS_POLL, kind: .fsPoll)
        try adopt("uv_fs_poll_init") { uv_fs_poll_init(loop.raw, poll) }
    }

    private var poll: UnsafeMutablePointer<uv_fs_poll_t> {
        pointer.assumingMemoryBound(to: uv_fs_poll_t.self)
    }

    /// Starts polling `path` every `milliseconds` (`uv_fs_poll_start`).
    func start(_ path: String, milliseconds: UInt32) throws(UVError) {
        try uvCall("uv_fs_poll_start", address: path) { uv_fs_poll_start(poll, uvFileSystemPolled, path, milliseconds) }
    }

    override func releaseCallbacks() {
        target = nil
    }

    fileprivate func deliver(_ status: Int32, _ previous: FileStatus, _ current: FileStatus) {
        target?.fileSystemPolled(status: status, previous: previous, current: current)
    }
}

private func uvFileSystemPolled(_ handle: UnsafeMutablePointer<uv_fs_poll_t>?, _ status: Int32, _ previous: UnsafePointer<uv_stat_t>?, _ current: UnsafePointer<uv_stat_t>?) {
    let previous = previous.map { FileStatus($0.pointee) } ?? .missing
    let current = current.map { FileStatus($0.pointee) } ?? .missing
    UVHandle.withOwner(of: handle, as: UVFileSystemPoll.self) { $0.deliver(status, previous, current) }
}
