@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// The observable of `bindUDP` and `connectUDP`: one socket per subscription.
final class UDPOpen: Producer<UDPSocket> {
    private let loop: Loop
    private let host: String
    private let port: Int
    private let options: UDPOptions
    private let connects: Bool

    init(loop: Loop, host: String, port: Int, options: UDPOptions, connects: Bool) {
        self.loop = loop
        self.host = host
        self.port = port
        self.options = options
        self.connects = connects
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == UDPSocket {
        let sink = UDPOpenSink(open: self, observer: observer, cancel: cancel)
        sink.start(connects ? "uv_udp_connect" : "uv_udp_bind")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns the lookup (for a host name) of one subscription, then hands the
    /// socket it opens to a `UDPSocket`.
    private final class UDPOpenSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == UDPSocket {
        private let request: UDPOpen

        init(open: UDPOpen, observer: Observer, cancel: SinkDisposer) {
            self.request = open
            super.init(loop: open.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            try withAddresses(host: request.host, port: request.port, operation: request.connects ? "uv_udp_connect" : "uv_udp_bind") { [self] addresses throws(UVError) in
                let socket = try makeSocket(for: addresses[0])
                forwardNext(socket)
                forwardCompleted()
            }
        }

        private func makeSocket(for address: SocketAddress) throws(UVError) -> UDPSocket {
            let options = request.options
            let owned = Owned(try UVUDP(loop: loop, family: address.isIPv6 ? AF_INET6 : AF_INET, batched: options.batchedReceive))
            // A throw below drops `owned`, which closes the handle.
            do {
                let udp = owned.resource
                if options.reusePort {
                    try udp.setSocketOption(SO_REUSEPORT, 1, name: "setsockopt(SO_REUSEPORT)")
                }
                try udp.setBufferSize(receive: options.receiveBufferSize, send: options.sendBufferSize)
                if request.connects {
                    if options.reuseAddress {
                        try udp.bind(try SocketAddress(ip: address.isIPv6 ? "::" : "0.0.0.0", port: 0), reuseAddress: true)
                    }
                    try udp.connect(address)
                } else {
                    try udp.bind(address, reuseAddress: options.reuseAddress)
                }
                if options.broadcast {
                    try udp.setBroadcast(true)
                }
            }
            return UDPSocket(handle: owned.handOver())
        }
    }
}
