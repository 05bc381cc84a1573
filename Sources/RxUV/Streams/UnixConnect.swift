@_spi(Bridge) import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The observable of `loop.rx.connect(unixPath:)`: one connection attempt
/// per subscription, a single element then completion.
final class UnixConnect: Producer<UnixConnection> {
    private let loop: Loop
    private let path: String

    init(loop: Loop, path: String) {
        self.loop = loop
        self.path = path
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == UnixConnection {
        let sink = UnixConnectSink(loop: loop, path: path, observer: observer, cancel: cancel)
        sink.start("uv_pipe_connect")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns the pipe of one connection attempt until it connects.
    private final class UnixConnectSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == UnixConnection {
        private let path: String

        init(loop: Loop, path: String, observer: Observer, cancel: SinkDisposer) {
            self.path = path
            super.init(loop: loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            try UnixSocketPath.validate(path, operation: "uv_pipe_connect")
            let address = UnixSocketPath.display(path)
            if UnixSocketPath.isAbstract(path) {
                let descriptor = try UnixSocketPath.connectedAbstractSocket(path)
                let pipe = try UVStream.adopting(
                    descriptor, make: { () throws(UVError) in try UVPipe(loop: loop) }, open: { pipe, descriptor throws(UVError) in try pipe.open(descriptor, address: address) })
                forwardNext(UnixConnection(handle: pipe))
                forwardCompleted()
                return
            }
            try own(try UVPipe(loop: loop)) { (pipe) throws(UVError) in
                _ = try ConnectRequest(pipe: pipe, path: path) { [self] status in
                    connected(pipe, status: status, address: address)
                }
            }
        }

        private func connected(_ pipe: UVPipe, status: Int32, address: String) {
            // Disposed: the close step has closed the pipe already.
            guard !isDisposed else { return }
            guard status >= 0 else {
                releaseOwned()
                forwardError(UVError(status: status, operation: "uv_pipe_connect", address: address))
                return
            }
            disown()
            forwardNext(UnixConnection(handle: pipe))
            forwardCompleted()
        }
    }
}
