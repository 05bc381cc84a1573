@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// Opens a UDP socket bound to `host:port` and succeeds with it
    /// (`uv_udp_init_ex`, `uv_udp_bind`), with `options` set before
    /// binding (`SO_REUSEPORT`, buffer sizes) or right after (broadcast).
    ///
    /// `host` may be a numeric IPv4/IPv6 address or a name, which is
    /// resolved first (the first address is bound); port 0 lets the system
    /// choose (see `UDPSocket.localAddress`). Fails with the `UVError` of the
    /// step that failed (`EADDRINUSE`, `EADDRNOTAVAIL`, `EAI_NONAME`). The
    /// result arrives on the loop thread. Disposing before it arrives closes
    /// the socket.
    public func bindUDP(host: String, port: Int, options: UDPOptions = UDPOptions()) -> Single<UDPSocket> {
        Single(raw: UDPOpen(loop: base, host: host, port: port, options: options, connects: false))
    }

    /// Opens a UDP socket connected to `host:port` (`uv_udp_connect`): its
    /// sends go there (`UDPSocket.send(_:)`) and it receives only that
    /// peer's datagrams. An ICMP port unreachable for an earlier send shows
    /// up as `ECONNREFUSED` on a later send, never as the end of
    /// `datagrams`. Otherwise as `bindUDP`.
    public func connectUDP(host: String, port: Int, options: UDPOptions = UDPOptions()) -> Single<UDPSocket> {
        Single(raw: UDPOpen(loop: base, host: host, port: port, options: options, connects: true))
    }
}

/// The observable of `bindUDP` and `connectUDP`: one socket per subscription.
private final class UDPOpen: Producer<UDPSocket> {
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == UDPSocket {
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
