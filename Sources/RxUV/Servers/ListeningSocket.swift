internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP or Unix-domain socket that RxUV accepts on itself
/// (`accept`, through `Acceptor`), so that a connection can be opened on
/// any loop: libuv accepts only onto the loop of its listener. The one
/// bind path of `loop.rx.listen` and `Server`.
///
/// It owns its descriptor (`OwnedDescriptor`): `close()` closes it (and
/// removes a Unix-domain socket's file), and so does releasing a socket
/// that was never closed (a server that failed to start on another).
// @unchecked Sendable: made on the caller's thread, then used by one
// acceptor on its loop's thread.
final class ListeningSocket: @unchecked Sendable {
    /// The descriptor's number; -1 once closed (a call then fails with
    /// `EBADF` instead of reaching a number reused since).
    var descriptor: Int32 {
        owned?.descriptor ?? -1
    }
    /// The address it is bound to (the port the kernel chose for port 0).
    let address: ServerAddress
    private var owned: OwnedDescriptor?
    /// A Unix-domain socket's file, removed when the socket closes.
    private var file: UnixSocketPath.SocketFile?

    /// A non-blocking socket bound to `address` and listening, with
    /// `SO_REUSEADDR` and, when asked, `SO_REUSEPORT` (which libuv 1.44
    /// cannot set).
    init(address: SocketAddress, backlog: Int, reusePort: Bool) throws(UVError) {
        let name = address.description
        // A throw below drops `owned`, which closes the socket.
        let owned = OwnedDescriptor(
            try systemCall("socket", address: name) {
                socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        let descriptor = owned.descriptor
        do {
            try Self.setOption(SO_REUSEADDR, on: descriptor, address: name)
            if reusePort {
                try Self.setOption(SO_REUSEPORT, on: descriptor, address: name)
            }
            try systemCall("bind", address: name) {
                address.withSockAddr { Glibc.bind(descriptor, $0, socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)) }
            }
            try systemCall("listen", address: name) { Glibc.listen(descriptor, Int32(clamping: backlog)) }
            var storage = sockaddr_storage()
            var storageLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            try systemCall("getsockname", address: name) {
                withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &storageLength) }
                }
            }
            guard let local = SocketAddress(storage: storage) else {
                throw UVError(code: UVError.Code.addressFamilyNotSupported, operation: "getsockname", address: name)
            }
            self.address = .ip(local)
            self.owned = consume owned
            self.file = nil
        }
    }

    /// Sets the integer socket option `option` to 1 (`setsockopt`).
    private static func setOption(_ option: Int32, on descriptor: Int32, address: String) throws(UVError) {
        var on: Int32 = 1
        try systemCall("setsockopt", address: address) { setsockopt(descriptor, SOL_SOCKET, option, &on, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// A non-blocking Unix-domain socket bound to `path` and listening: a
    /// stale socket file (nobody answers) is replaced; a live server's, or a
    /// file that is not a socket, fails with `EADDRINUSE`. `mode` is set on
    /// the file before it listens.
    init(unixPath path: String, backlog: Int, mode: mode_t?) throws(UVError) {
        var file: UnixSocketPath.SocketFile?
        // A throw below drops `owned`, which closes the socket.
        let owned = try UnixSocketPath.boundListeningSocket(path, mode: mode, operation: "bind", file: &file)
        do throws(UVError) {
            try systemCall("listen", address: UnixSocketPath.display(path)) { Glibc.listen(owned.descriptor, Int32(clamping: backlog)) }
        } catch {
            file?.remove()
            throw error
        }
        self.address = .unix(path)
        self.owned = consume owned
        self.file = file
    }

    /// A Unix-domain stream socket handed in already open (socket
    /// activation: bound, and perhaps listening): made non-blocking and
    /// closed on exec, then listening. The socket is this listener's from
    /// here: closed on failure too. Its file, if any, is left in place.
    init(adopting descriptor: Int32, backlog: Int) throws(UVError) {
        let name = "fd \(descriptor)"
        // A throw below drops `owned`, which closes the socket.
        let owned = OwnedDescriptor(descriptor)
        do {
            let flags = try systemCall("fcntl", address: name) { fcntl(descriptor, F_GETFL) }
            try systemCall("fcntl", address: name) { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
            try systemCall("fcntl", address: name) { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            try systemCall("listen", address: name) { Glibc.listen(descriptor, Int32(clamping: backlog)) }
        }
        self.address = .unix(name)
        self.owned = consume owned
        self.file = nil
    }

    /// The next connection's descriptor, non-blocking and closed on exec
    /// in the same call (`accept4`), so a child spawned meanwhile never
    /// inherits it; `nil` when none waits (`EAGAIN`), else the failure.
    func accept() throws(UVError) -> OwnedDescriptor? {
        // No connection waiting (`EAGAIN`) is the usual end of a batch:
        // an answer, not an error, so nothing is formatted for it.
        let accepted = try systemCall("accept", address: address.description, tolerating: EAGAIN) { rxuv_accept_cloexec(descriptor) }
        return accepted < 0 ? nil : OwnedDescriptor(accepted)
    }

    /// Refuses an accepted connection: closes it with a reset (`SO_LINGER`
    /// 0), so the client hears at once (a Unix-domain client sees its end
    /// of file).
    static func refuse(_ connection: consuming OwnedDescriptor) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        let number = connection.descriptor
        do throws(UVError) {
            try systemCall("setsockopt") { setsockopt(number, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) }
        } catch {
            // The close below is then an orderly one, which still refuses.
            report(error, ReportContext(handle: "refused connection"))
        }
        // Dropping `connection` closes it.
    }

    /// Closes the socket and removes its file, once. Loop thread (its
    /// acceptor's), or before any loop has it.
    func close() {
        owned = nil
        file?.remove()
        file = nil
    }

    deinit {
        close()
    }
}
