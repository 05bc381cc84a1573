@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// The receiving end of a UDP socket: the one sink the socket hands each
/// datagram to. `UDPSocket` calls it on the loop thread, one at a time.
protocol UDPReceiver: AnyObject {
    /// One datagram.
    func received(_ datagram: Datagram)
    /// The end of receiving: `nil` when the socket closed, else the error.
    func end(_ error: UVError?)
}

/// The observable of `socket.rx.datagrams`.
final class UDPReceive: Producer<Datagram> {
    private let socket: UDPSocket

    init(socket: UDPSocket) {
        self.socket = socket
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Datagram {
        let sink = UDPReceiveSink(socket: socket, observer: observer, cancel: cancel)
        sink.start("uv_udp_recv_start")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Owns one receiving subscription: the socket's receiver while it
    /// receives. Disposing stops receiving.
    private final class UDPReceiveSink<Observer: ObserverType>: HandleSink<Observer>, UDPReceiver, @unchecked Sendable where Observer.Element == Datagram {
        private let socket: UDPSocket

        init(socket: UDPSocket, observer: Observer, cancel: SinkDisposer) {
            self.socket = socket
            super.init(loop: socket.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            socket.beginReceiving(self)
        }

        override func didRelease() {
            socket.endReceiving(self)
        }

        func received(_ datagram: Datagram) {
            forwardNext(datagram)
        }

    }
}
