@_spi(Bridge) import RxCore

/// The observable of `loop.rx.watch`: one `uv_fs_event_t` per subscription.
final class FileSystemWatch: Producer<FileEvent> {
    private let loop: Loop
    private let path: String
    private let recursive: Bool

    init(loop: Loop, path: String, recursive: Bool) {
        self.loop = loop
        self.path = path
        self.recursive = recursive
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == FileEvent {
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
