@_spi(Bridge) import RxCore

/// The observable of `loop.rx.spawn`.
final class Spawn: Producer<ChildProcess> {
    private let loop: Loop
    private let options: ProcessOptions

    init(loop: Loop, options: ProcessOptions) {
        self.loop = loop
        self.options = options
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ChildProcess {
        let sink = SpawnSink(spawn: self, observer: observer, cancel: cancel)
        sink.start("uv_spawn")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Starts the child on the loop thread, unless disposed first.
    private final class SpawnSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == ChildProcess {
        private let spawn: Spawn

        init(spawn: Spawn, observer: Observer, cancel: SinkDisposer) {
            self.spawn = spawn
            super.init(loop: spawn.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            let child = try ChildProcess.spawn(spawn.options, on: loop)
            forwardNext(child)
            forwardCompleted()
        }
    }
}
