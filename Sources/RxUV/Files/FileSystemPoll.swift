@_spi(Bridge) import RxCore

/// The observable of `loop.rx.poll`: one `uv_fs_poll_t` per subscription.
final class FileSystemPoll: Producer<(previous: FileStatus, current: FileStatus)> {
    private let loop: Loop
    private let path: String
    private let interval: RxTimeInterval

    init(loop: Loop, path: String, interval: RxTimeInterval) {
        self.loop = loop
        self.path = path
        self.interval = interval
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable)
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
