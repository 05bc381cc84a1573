/// How `loop.rx.bindUDP` and `loop.rx.connectUDP` set a UDP socket up.
public struct UDPOptions: Sendable, Hashable {
    /// `SO_REUSEADDR` (`UV_UDP_REUSEADDR`): bind an address another socket
    /// uses, as multicast receivers do. Default `false`.
    public var reuseAddress = false
    /// `SO_REUSEPORT`: several sockets share one port and the kernel spreads
    /// datagrams over them. libuv 1.44 has no flag for it: RxUV sets it with
    /// `setsockopt` before binding. Default `false`.
    public var reusePort = false
    /// `SO_BROADCAST` (`uv_udp_set_broadcast`): allow sending to broadcast
    /// addresses; without it such a send fails with `EACCES`. Default `false`.
    public var broadcast = false
    /// The kernel's receive buffer size in bytes (`uv_recv_buffer_size`;
    /// Linux doubles it), or the system default.
    public var receiveBufferSize: Int?
    /// The kernel's send buffer size in bytes (`uv_send_buffer_size`), or the
    /// system default.
    public var sendBufferSize: Int?
    /// Receive up to 16 datagrams per system call (`recvmmsg`, libuv's
    /// `UV_UDP_RECVMMSG`): fewer system calls under load, at the cost of a
    /// 1 MiB receive buffer for the socket. Default `false` (reads land in the
    /// loop's shared buffer).
    public var batchedReceive = false

    /// The defaults: every option off.
    public init() {}

    /// Options with the given values.
    public init(reuseAddress: Bool = false, reusePort: Bool = false, broadcast: Bool = false, receiveBufferSize: Int? = nil, sendBufferSize: Int? = nil, batchedReceive: Bool = false) {
        self.reuseAddress = reuseAddress
        self.reusePort = reusePort
        self.broadcast = broadcast
        self.receiveBufferSize = receiveBufferSize
        self.sendBufferSize = sendBufferSize
        self.batchedReceive = batchedReceive
    }
}
