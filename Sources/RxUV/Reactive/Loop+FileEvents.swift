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
    public func watchFile(path: String, settle: RxTimeInterval = .milliseconds(100)) -> Observable<FileStatus> {
        let components = PathComponents(path)
        let name = components.name
        let loop = base
        return watch(path: components.directory)
            .filter { $0.name == name }
            .debounce(settle, scheduler: loop)
            .flatMapLatest { _ in loop.rx.stat(path: path) }
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
    public func poll(path: String, interval: RxTimeInterval) -> Observable<(previous: FileStatus, current: FileStatus)> {
        FileSystemPoll(loop: base, path: path, interval: interval)
    }
}

/// The observable of `loop.rx.watch`: one `uv_fs_event_t` per subscription.
private final class FileSystemWatch: Producer<FileEvent> {
    private let loop: Loop
    private let path: String
    private let recursive: Bool

    init(loop: Loop, path: String, recursive: Bool) {
        self.loop = loop
        self.path = path
        self.recursive = recursive
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == FileEvent {
        let sink = FileSystemWatchSink(watch: self, observer: observer, cancel: cancel)
        sink.start("uv_fs_event_start")
        return (sink: sink, subscription: Disposables.create())
    }

    private final class FileSystemWatchSink<Observer: ObserverType>: HandleSink<Observer>, UVFileSystemEventTarget, @unchecked Sendable where Observer.Element == FileEvent {
        private let watch: FileSystemWatch

        init(watch: FileSystemWatch, observer: Observer, cancel: SinkDisposer) {
            self.watch = watch
            super.init(loop: watch.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            guard !watch.recursive else {
                throw UVError(code: .notSupported, operation: "uv_fs_event_start", address: "\(watch.path): recursive watching is not supported on Linux")
            }
            try own(try UVFileSystemEvent(loop: loop)) { [watch] (event) throws(UVError) in
                try event.start(watch.path)
                event.target = self
            }
        }

        func fileSystemEvent(name: String?, events: Int32, status: Int32) {
            if status < 0 {
                releaseOwned()
                forwardError(UVError(status: status, operation: "uv_fs_event", address: watch.path))
            } else {
                forwardNext(FileEvent(name: name, kind: FileEvent.Kind(rawValue: events)))
            }
        }
    }
}

/// The observable of `loop.rx.poll`: one `uv_fs_poll_t` per subscription.
private final class FileSystemPoll: Producer<(previous: FileStatus, current: FileStatus)> {
    private let loop: Loop
    private let path: String
    private let interval: RxTimeInterval

    init(loop: Loop, path: String, interval: RxTimeInterval) {
        self.loop = loop
        self.path = path
        self.interval = interval
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == (previous: FileStatus, current: FileStatus) {
        let sink = FileSystemPollSink(poll: self, observer: observer, cancel: cancel)
        sink.start("uv_fs_poll_start")
        return (sink: sink, subscription: Disposables.create())
    }

    private final class FileSystemPollSink<Observer: ObserverType>: HandleSink<Observer>, UVFileSystemPollTarget, @unchecked Sendable
    where Observer.Element == (previous: FileStatus, current: FileStatus) {
        private let poll: FileSystemPoll
        /// The last `current` reported was `.missing`: libuv keeps the status
        /// from before the file went as its `previous`. Loop-thread state.
        private var reportedMissing = false

        init(poll: FileSystemPoll, observer: Observer, cancel: SinkDisposer) {
            self.poll = poll
            super.init(loop: poll.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            let milliseconds = UInt32(clamping: max(LoopTimer.milliseconds(poll.interval), 1))
            try own(try UVFileSystemPoll(loop: loop)) { [poll] (handle) throws(UVError) in
                try handle.start(poll.path, milliseconds: milliseconds)
                handle.target = self
            }
        }

        func fileSystemPolled(status: Int32, previous: FileStatus, current: FileStatus) {
            if status == 0 || status == UVError.Code.noSuchFileOrDirectory.rawValue {
                let current = status == 0 ? current : .missing
                let previous = reportedMissing ? .missing : previous
                // A path missing from the start is reported once, unchanged.
                if current != previous {
                    reportedMissing = !current.exists
                    forwardNext((previous: previous, current: current))
                }
            } else {
                releaseOwned()
                forwardError(UVError(status: status, operation: "uv_fs_poll", address: poll.path))
            }
        }
    }
}
