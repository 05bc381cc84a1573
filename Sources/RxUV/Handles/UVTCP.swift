internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A `uv_tcp_t`: a listening socket or a connection. What it shares with
/// other streams (listen, read, write) is in `UVStream`.
final class UVTCP: UVStream, @unchecked Sendable {
    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_TCP, kind: .tcp)
        try adopt("uv_tcp_init") { uv_tcp_init(loop.raw, tcp) }
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> {
        pointer.assumingMemoryBound(to: uv_tcp_t.self)
    }

    /// Adopts an open TCP socket descriptor (`uv_tcp_open`).
    func open(_ descriptor: Int32) throws(UVError) {
        try uvCall("uv_tcp_open", address: "fd \(descriptor)") { uv_tcp_open(tcp, descriptor) }
    }

    /// The local address (`uv_tcp_getsockname`).
    var localAddress: SocketAddress? {
        address(uv_tcp_getsockname)
    }

    /// The peer's address (`uv_tcp_getpeername`).
    var remoteAddress: SocketAddress? {
        address(uv_tcp_getpeername)
    }

    /// Closes with a TCP reset instead of a FIN (`uv_tcp_close_reset`); falls
    /// back to `uv_close` if the reset cannot be sent.
    override func closeWithReset() {
        close { handle, callback in
            let tcp = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_tcp_t.self)
            if uv_tcp_close_reset(tcp, callback) != 0 {
                uv_close(handle, callback)
            }
        }
    }

    /// Disables (or re-enables) Nagle's algorithm (`uv_tcp_nodelay`).
    func setNoDelay(_ enabled: Bool) throws(UVError) {
        guard isOpen else { throw UVError(code: UVError.Code.notConnected, operation: "uv_tcp_nodelay") }
        try uvCall("uv_tcp_nodelay") { uv_tcp_nodelay(tcp, enabled ? 1 : 0) }
    }

    /// Enables TCP keep-alive probes after `delay` seconds idle, or disables
    /// them (`uv_tcp_keepalive`).
    func setKeepAlive(_ enabled: Bool, delay: UInt32) throws(UVError) {
        guard isOpen else { throw UVError(code: UVError.Code.notConnected, operation: "uv_tcp_keepalive") }
        try uvCall("uv_tcp_keepalive") { uv_tcp_keepalive(tcp, enabled ? 1 : 0, delay) }
    }

    private func address(_ query: (UnsafePointer<uv_tcp_t>?, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<Int32>?) -> Int32) -> SocketAddress? {
        guard isOpen else { return nil }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutableBytes(of: &storage) { raw in
            query(tcp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        return status == 0 ? SocketAddress(storage: storage) : nil
    }
}
