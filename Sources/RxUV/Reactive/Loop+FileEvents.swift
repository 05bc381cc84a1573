@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Emits an event each time the file or directory at `path` (or, for a
    /// directory, an entry in it) is renamed, created, deleted or changed
    /// (`uv_fs_event_start`, inotify on Linux).
    ///
    /// Events arrive on the loop thread; the sequence never completes by
    /// itself and fails with the `UVError` of the watch. Disposing stops
    /// watching and closes the handle, from any thread.
    ///
    /// A watch follows the inode, not the name: an editor that saves by
    /// writing a temporary file and renaming it over the original leaves a
    /// watch on the file looking at the old inode, which sees nothing more.
    /// Use `watchFile(path:settle:)` to follow a name.
    ///
    /// `recursive` must be `false`: libuv cannot watch subdirectories on
    /// Linux, so asking for it fails with `ENOTSUP` rather than being
    /// quietly ignored. Reaching inotify's watch limit fails with `ENOSPC`
    /// and a message that says so (`fs.inotify.max_user_watches`), not a
    /// full disk.
    public func watch(path: String, recursive: Bool = false) -> Observable<FileEvent> {
        FileSystemWatch(loop: base, path: path, recursive: recursive)
    }

    /// Emits the status of the file at `path` after each change to it has
    /// settled: events for the name are collected until `settle` passes
    /// without another, then the file is looked at once (`stat`) and its
    /// status emitted — `FileStatus.missing` when it was deleted.
    ///
    /// The name is followed, not the inode: the parent directory is watched
    /// and events filtered by name, so editors' atomic saves (write a
    /// temporary file, rename it over the original), delete then re-create,
    /// and replacement by another file are all seen, each burst as one
    /// status. Events arrive on the loop thread; fails like `watch` (a
    /// missing parent directory gives `ENOENT`). Disposing closes the watch.
    /// `settle` runs on the loop's timers (`debounce` on the loop).
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func watchFile(path: String, settle: RxTimeInterval = .milliseconds(100)) -> Observable<FileStatus> {
        let components = PathComponents(path)
        let name = components.name
        let loop = base
        return watch(path: components.directory)
            .filter { $0.name == name }
            .debounce(settle, scheduler: loop)
            .flatMapLatest { _ in loop.rx.stat(path: path) }
    }

    /// `watchFile(path:settle:)` with a `Duration`: emits the status of the
    /// file at `path` (`stat`) once its changes have settled for `settle`,
    /// following the name through atomic saves (`uv_fs_event_start` on the
    /// parent directory). Events arrive on the loop thread; never completes
    /// by itself; fails with the watch's `UVError`; disposing closes the
    /// watch.
    @_disfavoredOverload
    public func watchFile(path: String, settle: Duration) -> Observable<FileStatus> {
        watchFile(path: path, settle: RxTimeInterval(settle))
    }

    /// Emits `(previous, current)` each time polling the status of `path`
    /// every `interval` finds it changed (`uv_fs_poll_start`, a `stat` on
    /// libuv's thread pool each time): for file systems where inotify does
    /// not work (NFS, FUSE). A path that disappears gives a `current` of
    /// `FileStatus.missing`; one that appears, a `previous` of it. The first
    /// report comes at the first change, not at the start.
    ///
    /// Events arrive on the loop thread; fails with the `UVError` of a poll
    /// that fails otherwise (`EACCES`...). Disposing stops polling and
    /// closes the handle. Intervals are in whole milliseconds (at least 1).
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func poll(path: String, interval: RxTimeInterval) -> Observable<(previous: FileStatus, current: FileStatus)> {
        FileSystemPoll(loop: base, path: path, interval: interval)
    }

    /// `poll(path:interval:)` with a `Duration`: emits `(previous, current)`
    /// each time polling `path` every `interval` (whole milliseconds, at
    /// least 1) finds its status changed (`uv_fs_poll_start`). Events arrive
    /// on the loop thread; never completes by itself; fails with the poll's
    /// `UVError`; disposing stops polling and closes the handle.
    @_disfavoredOverload
    public func poll(path: String, interval: Duration) -> Observable<(previous: FileStatus, current: FileStatus)> {
        poll(path: path, interval: RxTimeInterval(interval))
    }
}
