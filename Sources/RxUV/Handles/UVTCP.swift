internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// Ignores SIGPIPE for the whole process, once, before the first TCP handle:
/// a write to a closed peer then fails with `EPIPE` instead of killing us.
private let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
}()

/// A `uv_tcp_t`: a listening socket or a connection.
final class UVTCP: UVHandle {
    /// A listening socket's connection callback, with libuv's status.
    var onConnection: ((Int32) -> Void)?
    /// A reading connection's callback: the bytes read, `UV_EOF`, or an error.
    var onRead: ((Int, UnsafeRawPointer?) -> Void)?

    init(loop: Loop) throws(UVError) {
        _ = ignoreSIGPIPE
        super.init(loop: loop, type: UV_TCP, kind: .tcp)
        try adopt("uv_tcp_init") { uv_tcp_init(loop.raw, tcp) }
    }

    override func releaseCallbacks() {
        onConnection = nil
        onRead = nil
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> {
        pointer.assumingMemoryBound(to: uv_tcp_t.self)
    }

    var stream: UnsafeMutablePointer<uv_stream_t> {
        pointer.assumingMemoryBound(to: uv_stream_t.self)
    }

    /// Binds to `address` (`uv_tcp_bind`).
    func bind(_ address: SocketAddress) throws(UVError) {
        try uvCall("uv_tcp_bind", address: address.description) { address.withSockAddr { uv_tcp_bind(tcp, $0, 0) } }
    }

    /// Starts listening (`uv_listen`).
    func listen(backlog: Int32, address: String) throws(UVError) {
        try uvCall("uv_listen", address: address) { uv_listen(stream, backlog, uvConnectionArrived) }
    }

    /// Accepts a pending connection into `client` (`uv_accept`).
    func accept(into client: UVTCP) throws(UVError) {
        try uvCall("uv_accept") { uv_accept(stream, client.stream) }
    }

    /// Starts reading into the loop's shared read buffer (`uv_read_start`).
    func startReading() throws(UVError) {
        try uvCall("uv_read_start") { uv_read_start(stream, uvAllocate, uvReadCompleted) }
    }

    /// Stops reading (`uv_read_stop`).
    func stopReading() {
        uv_read_stop(stream)
    }

    /// Writes what the kernel takes of the `count` bytes at `bytes` without
    /// blocking (`uv_try_write`): the number written, or a negative status
    /// (`UV_EAGAIN` when nothing could be written, or while writes are
    /// queued). In debug builds a fault armed for `uv_write` replaces it.
    func tryWrite(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        #if TRACE_RESOURCES || DEBUG
        if let forced = UVFaultInjection.forcedStatus(for: "uv_write") {
            return Int(forced)
        }
        #endif
        var buffer = uv_buf_init(UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: CChar.self), UInt32(count))
        return Int(uv_try_write(stream, &buffer, 1))
    }

    /// Bytes queued for writing and not yet handed to the kernel.
    var writeQueueSize: Int {
        uv_stream_get_write_queue_size(stream)
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
    func closeWithReset() {
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

    fileprivate func connectionArrived(_ status: Int32) {
        #if TRACE_RESOURCES || DEBUG
        if status >= 0, let forced = UVFaultInjection.forcedStatus(for: "uv_connection_cb") {
            // Model what libuv does on a transient accept failure: the pending
            // peer is turned away (accepted and closed at once) and the
            // callback gets the error; the listener stays watched.
            if let pending = try? UVTCP(loop: loop) {
                _ = uv_accept(stream, pending.stream)
                pending.close()
            }
            onConnection?(forced)
            return
        }
        #endif
        onConnection?(status)
    }

    fileprivate func readCompleted(_ count: Int, _ bytes: UnsafeRawPointer?) {
        onRead?(count, bytes)
    }
}

private func uvConnectionArrived(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    UVHandle.owner(of: server, as: UVTCP.self).connectionArrived(status)
}

private func uvAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    let owner = UVHandle.owner(of: handle, as: UVTCP.self)
    let readBuffer = owner.loop.readBuffer
    buffer!.pointee = uv_buf_init(readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(readBuffer.count))
}

private func uvReadCompleted(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    let owner = UVHandle.owner(of: stream, as: UVTCP.self)
    owner.readCompleted(count, buffer.flatMap { UnsafeRawPointer($0.pointee.base) })
}
