@_spi(Bridge) import RxCore

/// The observable of `loop.rx.listen`: one listening socket per subscription.
final class TCPListen: Producer<TCPConnection> {
    private let loop: Loop
    private let host: String
    private let port: Int
    private let backlog: Int
    private let onListening: (@Sendable (SocketAddress) -> Void)?

    init(loop: Loop, host: String, port: Int, backlog: Int, onListening: (@Sendable (SocketAddress) -> Void)?) {
        self.loop = loop
        self.host = host
        self.port = port
        self.backlog = backlog
        self.onListening = onListening
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == TCPConnection {
        let sink = TCPListenSink(listen: self, observer: observer, cancel: cancel)
        sink.start("listen")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns the listening socket (and, for a host name, the lookup before
    /// it) of one subscription, and receives its connections.
    private final class TCPListenSink<Observer: ObserverType>: AcceptingSink<Observer>, @unchecked Sendable where Observer.Element == TCPConnection {
        private let listen: TCPListen

        init(listen: TCPListen, observer: Observer, cancel: SinkDisposer) {
            self.listen = listen
            super.init(loop: listen.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            // A host name listens on its first address.
            try withAddresses(host: listen.host, port: listen.port, operation: "bind") { [self] addresses throws(UVError) in
                let socket = try ListeningSocket(address: addresses[0], backlog: listen.backlog, reusePort: false)
                try accept(on: socket)
                if !isDisposed {
                    listen.onListening?(socket.address.socketAddress ?? addresses[0])
                }
            }
        }
    }
}
