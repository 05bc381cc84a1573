@_spi(Bridge) import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// Listens for connections on the Unix-domain socket `path` and emits
    /// each accepted connection (`socket`, `bind`, `listen`, made by RxUV,
    /// which accepts with `accept` and opens each connection with
    /// `uv_pipe_open`, as `Server` does).
    ///
    /// `path` is a file-system path, or on Linux an abstract name: a
    /// leading NUL (`"\u{0}name"`), which creates no file. On subscribe, on
    /// the loop thread:
    /// - a path longer than `sun_path` holds fails with `ENAMETOOLONG`
    ///   (libuv would truncate it silently);
    /// - a socket file left by a process that died (a connect to it is
    ///   refused) is removed and replaced; a path where a server answers, or
    ///   a file that is not a socket, fails with `EADDRINUSE` and is left
    ///   alone;
    /// - `mode` (for example `0o600`), when given, is set on the socket
    ///   file after binding and before `listen`, so no client can
    ///   connect with the default mode in between.
    ///
    /// `onListening` receives `path` once listening. Events arrive on the
    /// loop thread. Disposing closes the listener and removes the socket
    /// file (if it is still the one this listener bound); connections already accepted stay open. Accept
    /// failures follow `listen(host:port:backlog:onListening:)`'s rules.
    public func listen(
        unixPath path: String,
        backlog: Int = 4096,
        mode: mode_t? = nil,
        onListening: (@Sendable (String) -> Void)? = nil
    ) -> Observable<UnixConnection> {
        UnixListen(loop: base, source: .path(path, mode: mode), backlog: backlog, onListening: onListening)
    }

    /// Listens on an already open Unix-domain stream socket `descriptor`
    /// (socket activation: a descriptor a service manager passed in, bound
    /// and possibly listening already) and emits each accepted connection
    /// (made non-blocking, then `listen`).
    ///
    /// The subscription takes the descriptor, also when it fails: disposing
    /// closes it, so the Observable can be subscribed to once (a second
    /// subscription, a `retry`, fails with `EBADF`). A descriptor that is not a socket fails with
    /// the error of `listen` (`ENOTSOCK`) or `fcntl` (`EBADF`).
    /// Events arrive on the loop thread.
    public func listen(unixSocket descriptor: Int32, backlog: Int = 4096) -> Observable<UnixConnection> {
        UnixListen(loop: base, source: .descriptor(descriptor), backlog: backlog, onListening: nil)
    }

    /// Connects to the Unix-domain socket `path` (a file-system path, or an
    /// abstract name with a leading NUL) and succeeds with the connection
    /// (`uv_pipe_connect`; for an abstract name, a `connect` RxUV makes and
    /// hands to `uv_pipe_open`).
    ///
    /// Fails with `ENOENT` when no socket is there, `ECONNREFUSED` when
    /// nobody listens, `EACCES` when the mode forbids it, `ENAMETOOLONG` for
    /// a path longer than `sun_path` holds. Disposing while connecting closes
    /// the socket and nothing is emitted. The result arrives on the loop
    /// thread.
    public func connect(unixPath path: String) -> Single<UnixConnection> {
        Single(raw: UnixConnect(loop: base, path: path))
    }
}

/// The observable of `loop.rx.listen(unixPath:)` and
/// `loop.rx.listen(unixSocket:)`: one listening pipe per subscription.
private final class UnixListen: Producer<UnixConnection> {
    enum Source {
        case path(String, mode: mode_t?)
        case descriptor(Int32)
    }

    private let loop: Loop
    private let source: Source
    private let backlog: Int
    private let onListening: (@Sendable (String) -> Void)?
    /// For `.descriptor`: set by the subscription that adopts it.
    let descriptorTaken = Atomic<Bool>(false)

    init(loop: Loop, source: Source, backlog: Int, onListening: (@Sendable (String) -> Void)?) {
        self.loop = loop
        self.source = source
        self.backlog = backlog
        self.onListening = onListening
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == UnixConnection {
        let sink = UnixListenSink(listen: self, observer: observer, cancel: cancel)
        sink.start("listen")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns the listening pipe of one subscription.
    private final class UnixListenSink<Observer: ObserverType>: AcceptingSink<Observer>, @unchecked Sendable where Observer.Element == UnixConnection {
        private let listen: UnixListen

        init(listen: UnixListen, observer: Observer, cancel: SinkDisposer) {
            self.listen = listen
            super.init(loop: listen.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            switch listen.source {
            case .descriptor(let descriptor):
                // The first subscription takes the descriptor; a later one
                // (a retry) must not adopt a number that may name another
                // file by now.
                guard listen.descriptorTaken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
                    throw UVError(code: UVError.Code.badFileDescriptor, operation: "listen", address: "fd \(descriptor) (taken by an earlier subscription)")
                }
                try accept(on: try ListeningSocket(adopting: descriptor, backlog: listen.backlog))
            case .path(let path, let mode):
                try accept(on: try ListeningSocket(unixPath: path, backlog: listen.backlog, mode: mode))
                if !isDisposed {
                    listen.onListening?(path)
                }
            }
        }
    }
}

/// The observable of `loop.rx.connect(unixPath:)`: one connection attempt
/// per subscription, a single element then completion.
private final class UnixConnect: Producer<UnixConnection> {
    private let loop: Loop
    private let path: String

    init(loop: Loop, path: String) {
        self.loop = loop
        self.path = path
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == UnixConnection {
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
