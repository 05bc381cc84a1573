internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// Receives a UDP socket's datagrams: the socket's owner (`UDPSocket`),
/// which hands each to its receiver. Loop thread.
protocol UVUDPTarget: AnyObject {
    /// A receive completed (`uv_udp_recv_cb`): `count` bytes at `bytes` from
    /// `sender`, or a negative error status; `flags` are libuv's
    /// (`UV_UDP_PARTIAL`, `UV_UDP_MMSG_CHUNK`, `UV_UDP_MMSG_FREE`).
    func udpReceived(_ count: Int, _ bytes: UnsafeRawPointer?, from sender: UnsafePointer<sockaddr>?, flags: UInt32)
}

/// A `uv_udp_t`. Its receive callbacks reach `target`, its owner, which it
/// holds only while receiving.
final class UVUDP: UVHandle, @unchecked Sendable {
    /// Where received datagrams go; released when the handle closes.
    var target: UVUDPTarget?
    /// With batched receive (`recvmmsg`): the socket's own buffer, room for
    /// several datagrams; otherwise reads land in the loop's shared buffer.
    private var batchBuffer: UnsafeMutableRawBufferPointer?

    /// A UDP socket for `family` (`uv_udp_init_ex`), so that options can be
    /// set before binding; `batched` receives up to 16 datagrams per system
    /// call (`UV_UDP_RECVMMSG`).
    init(loop: Loop, family: Int32, batched: Bool) throws(UVError) {
        super.init(loop: loop, type: UV_UDP, kind: .udp)
        let flags = UInt32(family) | (batched ? UInt32(UV_UDP_RECVMMSG.rawValue) : 0)
        try adopt("uv_udp_init_ex") { uv_udp_init_ex(loop.raw, udp, flags) }
        if batched {
            batchBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 64 * 1024, alignment: 16)
        }
    }

    var udp: UnsafeMutablePointer<uv_udp_t> {
        pointer.assumingMemoryBound(to: uv_udp_t.self)
    }

    override func releaseCallbacks() {
        target = nil
    }

    /// Sets an integer socket option by hand (`setsockopt`), for what libuv
    /// 1.44 has no call for (`SO_REUSEPORT`).
    func setSocketOption(_ option: Int32, _ value: Int32, name: String) throws(UVError) {
        guard let descriptor else { throw UVError(code: UVError.Code.badFileDescriptor, operation: name) }
        var value = value
        try systemCall("setsockopt", address: name) { setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Binds to `address` (`uv_udp_bind`), with `SO_REUSEADDR` when `reuseAddress`.
    func bind(_ address: SocketAddress, reuseAddress: Bool) throws(UVError) {
        let flags = reuseAddress ? UInt32(UV_UDP_REUSEADDR.rawValue) : 0
        try uvCall("uv_udp_bind", address: address.description) { address.withSockAddr { uv_udp_bind(udp, $0, flags) } }
    }

    /// Associates the socket with `address` (`uv_udp_connect`): sends go
    /// there, and only its datagrams are received.
    func connect(_ address: SocketAddress) throws(UVError) {
        try uvCall("uv_udp_connect", address: address.description) { address.withSockAddr { uv_udp_connect(udp, $0) } }
    }

    /// Allows sending to broadcast addresses (`uv_udp_set_broadcast`).
    func setBroadcast(_ enabled: Bool) throws(UVError) {
        try uvCall("uv_udp_set_broadcast") { uv_udp_set_broadcast(udp, enabled ? 1 : 0) }
    }

    /// Sets the kernel's receive or send buffer size (`uv_recv_buffer_size`,
    /// `uv_send_buffer_size`).
    func setBufferSize(receive: Int?, send: Int?) throws(UVError) {
        if var size = receive.map({ Int32(clamping: $0) }) {
            try uvCall("uv_recv_buffer_size") { uv_recv_buffer_size(handle, &size) }
        }
        if var size = send.map({ Int32(clamping: $0) }) {
            try uvCall("uv_send_buffer_size") { uv_send_buffer_size(handle, &size) }
        }
    }

    /// Joins or leaves the multicast `group` on `interface` (any when nil)
    /// (`uv_udp_set_membership`).
    func setMembership(_ group: String, interface: String?, join: Bool) throws(UVError) {
        let membership = join ? UV_JOIN_GROUP : UV_LEAVE_GROUP
        try uvCall(join ? "uv_udp_set_membership (join)" : "uv_udp_set_membership (leave)", address: group) {
            uv_udp_set_membership(udp, group, interface, membership)
        }
    }

    /// Starts receiving (`uv_udp_recv_start`); datagrams go to `target`.
    func startReceiving() throws(UVError) {
        try uvCall("uv_udp_recv_start") { uv_udp_recv_start(udp, uvUDPAllocate, uvUDPReceived) }
    }

    /// Stops receiving (`uv_udp_recv_stop`).
    func stopReceiving() {
        uv_udp_recv_stop(udp)
    }

    /// Sends what fits at once (`uv_udp_try_send`): the byte count, or a
    /// negative status (`UV_EAGAIN` when it would block or sends are
    /// queued). In debug builds a fault armed for `uv_udp_send` replaces it.
    func trySend(_ bytes: ByteBuffer, to address: SocketAddress?) -> Int {
        var buffer = bytes.uvBuffer()
        return Int(
            uvStatus("uv_udp_send") {
                guard let address else { return uv_udp_try_send(udp, &buffer, 1, nil) }
                return address.withSockAddr { uv_udp_try_send(udp, &buffer, 1, $0) }
            })
    }

    /// Bytes queued for sending (`uv_udp_get_send_queue_size`).
    var sendQueueSize: Int {
        uv_udp_get_send_queue_size(udp)
    }

    /// The bound address (`uv_udp_getsockname`).
    var localAddress: SocketAddress? {
        address(uv_udp_getsockname)
    }

    /// The connected peer (`uv_udp_getpeername`), for a connected socket.
    var remoteAddress: SocketAddress? {
        address(uv_udp_getpeername)
    }

    private func address(_ query: (UnsafePointer<uv_udp_t>?, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<Int32>?) -> Int32) -> SocketAddress? {
        guard isOpen else { return nil }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutableBytes(of: &storage) { raw in
            query(udp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        return status == 0 ? SocketAddress(storage: storage) : nil
    }

    fileprivate var receiveBuffer: UnsafeMutableRawBufferPointer {
        batchBuffer ?? loop.readBuffer
    }

    deinit {
        batchBuffer?.deallocate()
    }
}

/// A `uv_udp_send_t` with the bytes it sends, kept alive until libuv is done.
final class UDPSendRequest: CompletingRequest<Int32>, @unchecked Sendable {
    private let bytes: ByteBuffer

    /// Queues `bytes` for `address` (`nil` on a connected socket) with
    /// `uv_udp_send`; `completion` gets libuv's status.
    init(udp: UVUDP, bytes: ByteBuffer, to address: SocketAddress?, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.bytes = bytes
        super.init(loop: udp.loop, type: UV_UDP_SEND, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_udp_send_t.self)
        var buffer = bytes.uvBuffer()
        try submit("uv_udp_send", address: address?.description) {
            guard let address else { return uv_udp_send(request, udp.udp, &buffer, 1, nil, uvUDPSent) }
            return address.withSockAddr { uv_udp_send(request, udp.udp, &buffer, 1, $0, uvUDPSent) }
        }
    }
}

private func uvUDPSent(_ request: UnsafeMutablePointer<uv_udp_send_t>?, _ status: Int32) {
    CompletingRequest<Int32>.complete(request, with: status)
}

private func uvUDPAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    buffer!.pointee = UVHandle.withOwner(of: handle, as: UVUDP.self) { $0.receiveBuffer.uvBuffer }
}

private func uvUDPReceived(_ udp: UnsafeMutablePointer<uv_udp_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?, _ sender: UnsafePointer<sockaddr>?, _ flags: UInt32) {
    UVHandle.withOwner(of: udp, as: UVUDP.self) {
        $0.target?.udpReceived(count, buffer.flatMap { UnsafeRawPointer($0.pointee.base) }, from: sender, flags: flags)
    }
}
