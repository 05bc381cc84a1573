/// One Unix-domain socket connection, accepted by
/// `loop.rx.listen(unixPath:)` or made by `loop.rx.connect(unixPath:)`: a
/// `StreamConnection` (read, write, shutdown, watermarks, writability) with
/// the socket's paths and the peer's credentials.
///
/// Every method is safe from any thread; libuv calls run on the loop thread.
public final class UnixConnection: StreamConnection, AcceptedConnection, @unchecked Sendable {
    /// The path of this end's socket (`uv_pipe_getsockname`): the
    /// listener's path for an accepted connection (an abstract name starts
    /// with a NUL), `nil` for an unbound client.
    public let localPath: String?
    /// The path of the peer's socket (`uv_pipe_getpeername`): the server's
    /// path for a client, usually `nil` for an accepted connection (clients
    /// seldom bind).
    public let peerPath: String?
    /// The peer process's pid, uid and gid (`SO_PEERCRED`), read when the
    /// connection was set up.
    public let peerCredentials: PeerCredentials?

    /// Wraps an open, connected pipe. Loop thread.
    init(handle: UVPipe, lifetime: StreamLifetime = .readSubscription) {
        self.localPath = handle.localPath
        self.peerPath = handle.peerPath
        self.peerCredentials = handle.peerCredentials
        super.init(handle: handle, lifetime: lifetime)
    }

    /// Opens an accepted socket on `loop` (`uv_pipe_init`, `uv_pipe_open`).
    static func adopting(_ descriptor: consuming OwnedDescriptor, on loop: Loop, listeningOn address: ServerAddress, lifetime: StreamLifetime) throws(UVError) -> UnixConnection {
        let name = address.unixPath.map(UnixSocketPath.display) ?? address.description
        let pipe = try UVStream.adopting(descriptor, make: { () throws(UVError) in try UVPipe(loop: loop) }, open: { pipe, descriptor throws(UVError) in try pipe.open(descriptor, address: name) })
        return UnixConnection(handle: pipe, lifetime: lifetime)
    }

    override public var peerDescription: String? {
        (peerPath ?? localPath).map(UnixSocketPath.display)
    }
}
