internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP or Unix-domain socket that RxUV accepts on itself
/// (`accept`), so that a connection can be opened on any loop: libuv accepts
/// only onto the loop of its listener.
struct ListeningSocket {
    let descriptor: Int32
    /// The address it is bound to (the port the kernel chose for port 0).
    let address: ServerAddress
    /// A Unix-domain socket's file, removed when the socket closes.
    private let file: UnixSocketPath.SocketFile?

    /// A non-blocking socket bound to `address` and listening, with
    /// `SO_REUSEADDR` and, when asked, `SO_REUSEPORT` (which libuv 1.44
    /// cannot set).
    init(address: SocketAddress, backlog: Int, reusePort: Bool) throws(UVError) {
        let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw UVError.fromErrno("socket", address: address.description)
        }
        do throws(UVError) {
            var on: Int32 = 1
            let length = socklen_t(MemoryLayout<Int32>.size)
            if setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, length) != 0
                || (reusePort && setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, length) != 0)
            {
                throw UVError.fromErrno("setsockopt", address: address.description)
            }
            if address.withSockAddr({ Glibc.bind(descriptor, $0, socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)) }) != 0 {
                throw UVError.fromErrno("bind", address: address.description)
            }
            if Glibc.listen(descriptor, Int32(clamping: backlog)) != 0 {
                throw UVError.fromErrno("listen", address: address.description)
            }
            var storage = sockaddr_storage()
            var storageLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let bound = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &storageLength) }
            }
            guard bound == 0, let local = SocketAddress(storage: storage) else {
                throw UVError.fromErrno("getsockname", address: address.description)
            }
            self.descriptor = descriptor
            self.address = .ip(local)
            self.file = nil
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// A non-blocking Unix-domain socket bound to `path` and listening: a
    /// stale socket file (nobody answers) is replaced; a live server's, or a
    /// file that is not a socket, fails with `EADDRINUSE`. `mode` is set on
    /// the file before it listens.
    init(unixPath path: String, backlog: Int, mode: mode_t?) throws(UVError) {
        let (descriptor, file) = try UnixSocketPath.boundListeningSocket(path, mode: mode, operation: "bind")
        guard Glibc.listen(descriptor, Int32(clamping: backlog)) == 0 else {
            let error = UVError.fromErrno("listen", address: UnixSocketPath.display(path))
            Glibc.close(descriptor)
            file?.remove()
            throw error
        }
        self.descriptor = descriptor
        self.address = .unix(path)
        self.file = file
    }

    /// The next connection's descriptor (closed on exec; `uv_tcp_open`
    /// makes it non-blocking); `nil` when none waits (`EAGAIN`), else the
    /// failure as a `UVError`.
    func accept() throws(UVError) -> Int32? {
        while true {
            let connection = Glibc.accept(descriptor, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                return connection
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw UVError.fromErrno("accept", address: address.description)
            }
        }
    }

    /// Refuses an accepted connection: closes it with a reset (`SO_LINGER`
    /// 0), so the client hears at once (a Unix-domain client sees its end
    /// of file).
    static func refuse(_ connection: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(connection)
    }

    func close() {
        Glibc.close(descriptor)
        file?.remove()
    }
}
