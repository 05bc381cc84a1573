@_spi(Bridge) import RxCore

/// One TCP connection, accepted by `loop.rx.listen` or made by
/// `loop.rx.connect`: a `StreamConnection` (read, write, shutdown,
/// watermarks, writability) with TCP's own addresses, options and reset.
///
/// Connections RxUV accepts or makes have `TCP_NODELAY` set. Every method is
/// safe from any thread; libuv calls run on the loop thread.
public final class TCPConnection: StreamConnection, AcceptedConnection, @unchecked Sendable {
    /// The local address, read when the connection was set up.
    public let localAddress: SocketAddress?
    /// The peer's address, read when the connection was set up.
    public let remoteAddress: SocketAddress?

    /// Wraps an open socket, accepted or connected, and sets `TCP_NODELAY`
    /// on it (`uv_tcp_nodelay`): a failure is reported, with the peer, and
    /// the connection goes on with Nagle's algorithm. Loop thread.
    init(handle: UVTCP, lifetime: StreamLifetime = .readSubscription) {
        self.localAddress = handle.localAddress
        self.remoteAddress = handle.remoteAddress
        super.init(handle: handle, lifetime: lifetime)
        do throws(UVError) {
            try handle.setNoDelay(true)
        } catch {
            report(error, ReportContext(loop: loop, peer: peerDescription, handle: "tcp"))
        }
    }

    override public var peerDescription: String? {
        remoteAddress?.description
    }

    /// The socket. Loop thread only.
    private var socket: UVTCP {
        unsafeDowncast(handle, to: UVTCP.self)
    }

    /// Sets `TCP_NODELAY` (`uv_tcp_nodelay`): `true` (the default for
    /// connections RxUV accepts or makes) sends small writes at once instead
    /// of coalescing them (Nagle's algorithm). Completes on the loop thread;
    /// fails with `ENOTCONN` on a closed connection.
    public func setNoDelay(_ enabled: Bool) -> Completable {
        option("uv_tcp_nodelay") { (connection, finish) throws(UVError) in
            try connection.socket.setNoDelay(enabled)
            finish(nil)
        }
    }

    /// Enables TCP keep-alive probes once the connection has been idle for
    /// `delay` (whole seconds, at least 1), or disables them
    /// (`uv_tcp_keepalive`). Completes on the loop thread; fails with
    /// `ENOTCONN` on a closed connection. Disposing before it ran does not
    /// take the option back, only the notification.
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func setKeepAlive(_ enabled: Bool, delay: RxTimeInterval = .seconds(60)) -> Completable {
        let seconds = UInt32(clamping: max(1, delay.nanoseconds / 1_000_000_000))
        return option("uv_tcp_keepalive") { (connection, finish) throws(UVError) in
            try connection.socket.setKeepAlive(enabled, delay: seconds)
            finish(nil)
        }
    }

    /// `setKeepAlive(_:delay:)` with a `Duration`: enables TCP keep-alive
    /// probes once the connection has been idle for `delay` (whole seconds,
    /// at least 1), or disables them (`uv_tcp_keepalive`). Completes on the
    /// loop thread; fails with `ENOTCONN` on a closed connection.
    @_disfavoredOverload
    public func setKeepAlive(_ enabled: Bool, delay: Duration) -> Completable {
        setKeepAlive(enabled, delay: RxTimeInterval(delay))
    }

    /// A socket option set on the loop thread when subscribed (`LoopOperation`).
    private func option(_ operation: StaticString, _ body: @escaping LoopOperation<TCPConnection>.Body) -> Completable {
        Completable(raw: LoopOperation(loop: loop, target: self, operation: operation, body: body))
    }

    /// Opens an accepted socket on `loop` (`uv_tcp_init`, `uv_tcp_open`).
    static func adopting(_ descriptor: consuming OwnedDescriptor, on loop: Loop, listeningOn address: ServerAddress, lifetime: StreamLifetime) throws(UVError) -> TCPConnection {
        let socket = try UVStream.adopting(descriptor, make: { () throws(UVError) in try UVTCP(loop: loop) }, open: { socket, descriptor throws(UVError) in try socket.open(descriptor) })
        return TCPConnection(handle: socket, lifetime: lifetime)
    }

    /// Aborts the connection with a TCP reset (`uv_tcp_close_reset`): the
    /// peer sees `ECONNRESET`; pending writes fail with `ECANCELED`; a reader
    /// gets `.completed`. Safe from any thread.
    public func reset() {
        close(.reset)
    }
}
