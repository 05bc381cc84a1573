import RxCore

extension Reactive where Base == UDPSocket {
    /// The datagrams the socket receives (`uv_udp_recv_start`), each with its
    /// sender and a truncation flag; a zero-length datagram is emitted too.
    ///
    /// Receive errors (an ICMP error on a connected socket, `ENOBUFS`) go to
    /// the loop's logger (`Loop.logger`) and never end the sequence. Completes
    /// when the socket closes. One receiver at a time: a second concurrent
    /// subscriber gets `EBUSY`. Events arrive on the loop thread. Disposing
    /// stops receiving (`uv_udp_recv_stop`); the socket stays open.
    public var datagrams: Observable<Datagram> {
        UDPReceive(socket: base)
    }
}
