@_spi(Bridge) import RxCore

/// The observable of `loop.rx.connect`: one connection attempt per
/// subscription, a single element then completion.
final class TCPConnect: Producer<TCPConnection> {
    private let loop: Loop
    private let host: String
    private let port: Int

    init(loop: Loop, host: String, port: Int) {
        self.loop = loop
        self.host = host
        self.port = port
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == TCPConnection {
        let sink = TCPConnectSink(connect: self, observer: observer, cancel: cancel)
        sink.start("uv_tcp_connect")
        return (sink: sink, subscription: Disposables.create())
    }

    /// One `connect`: owns the lookup, then each attempt's socket in
    /// address order, until one connects; that socket becomes the
    /// connection it emits.
    private final class TCPConnectSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == TCPConnection {
        private let host: String
        private let port: Int
        // Loop-thread state.
        private var remaining: [SocketAddress] = []
        private var lastError: UVError?

        init(connect: TCPConnect, observer: Observer, cancel: SinkDisposer) {
            self.host = connect.host
            self.port = connect.port
            super.init(loop: connect.loop, observer: observer, cancel: cancel)
        }

        private var target: String {
            "\(host):\(port)"
        }

        override func open() throws(UVError) {
            try withAddresses(host: host, port: port, operation: "uv_tcp_connect") { [self] addresses in
                remaining = addresses
                tryNext()
            }
        }

        /// Connects to the next address, or fails with the last error.
        private func tryNext() {
            guard !isDisposed else { return }
            guard !remaining.isEmpty else {
                forwardError(lastError ?? UVError(code: UVError.Code.unknownHost, operation: "uv_tcp_connect", address: target))
                return
            }
            let address = remaining.removeFirst()
            do throws(UVError) {
                try own(try UVTCP(loop: loop)) { (socket) throws(UVError) in
                    _ = try ConnectRequest(tcp: socket, to: address) { [self] status in
                        connected(socket, status: status, address: address)
                    }
                }
            } catch {
                lastError = error
                tryNext()
            }
        }

        private func connected(_ socket: UVTCP, status: Int32, address: SocketAddress) {
            // Disposed: the close step has closed the socket already.
            guard !isDisposed else { return }
            guard status >= 0 else {
                releaseOwned()
                lastError = UVError(status: status, operation: "uv_tcp_connect", address: address.description)
                tryNext()
                return
            }
            disown()
            forwardNext(TCPConnection(handle: socket))
            forwardCompleted()
        }
    }
}
