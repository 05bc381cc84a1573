internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// The checks and system calls behind Unix-domain socket paths that libuv
/// 1.44 does not make: a length check (it truncates silently), the stale
/// socket probe, and abstract names (Linux: a leading NUL, no file), which
/// `uv_pipe_bind` and `uv_pipe_connect` cannot take (`uv_pipe_bind2` came
/// in 1.46): those sockets are made here and handed to `uv_pipe_open`.
enum UnixSocketPath {
    /// The room in `sockaddr_un.sun_path`.
    static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// `true` for an abstract name (a leading NUL).
    static func isAbstract(_ path: String) -> Bool {
        path.utf8.first == 0
    }

    /// The path for messages: an abstract name as `@name`.
    static func display(_ path: String) -> String {
        isAbstract(path) ? "@" + path.dropFirst() : path
    }

    /// Checks that `path` fits in `sun_path`: a file-system path with its
    /// terminating NUL, an abstract name as it is. Empty → `EINVAL`, too
    /// long → `ENAMETOOLONG`, a NUL inside a file-system path → `EINVAL`.
    static func validate(_ path: String, operation: StaticString) throws(UVError) {
        let bytes = Array(path.utf8)
        let fits = isAbstract(path) ? bytes.count <= capacity : bytes.count < capacity
        guard !bytes.isEmpty, isAbstract(path) || !bytes.contains(0) else {
            throw UVError(code: UVError.Code.invalidArgument, operation: "\(operation)", address: display(path))
        }
        guard fits else {
            throw UVError(code: UVError.Code.nameTooLong, operation: "\(operation)", address: "\(display(path)) (\(bytes.count) bytes; at most \(capacity - 1))")
        }
    }

    /// Before binding a file-system `path`: removes a socket file that no
    /// server answers on any more (a connect gets `ECONNREFUSED`); leaves a
    /// live server's socket, or a file that is not a socket, in place and
    /// throws `EADDRINUSE`.
    static func removeStaleSocket(at path: String) throws(UVError) {
        var status = stat()
        do throws(UVError) {
            try systemCall("lstat", address: path) { lstat(path, &status) }
        } catch {
            // Nothing there (or nothing we may look at: bind will say).
            return
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw UVError(code: UVError.Code.addressInUse, operation: "bind", address: "\(path) (not a socket)")
        }
        // A non-blocking probe: an AF_UNIX connect answers at once.
        // Closed as it goes out of scope.
        let probe = try newSocket(path)
        do throws(UVError) {
            try systemCall("connect", address: path) { withAddress(of: path) { connect(probe.descriptor, $0, $1) } }
        } catch  where error.code == .connectionRefused {
            // Nobody answers: the file is stale.
            do throws(UVError) {
                try systemCall("unlink", address: path) { unlink(path) }
            } catch  where error.code == .noSuchFileOrDirectory {
                // Removed meanwhile.
            }
            return
        } catch  where error.code == .wouldBlock || error.code.rawValue == -EINPROGRESS {
            // A server answers, with a full backlog.
        }
        throw UVError(code: UVError.Code.addressInUse, operation: "bind", address: "\(path) (a server answers there)")
    }

    /// A new socket bound to the abstract name `path` (close-on-exec,
    /// non-blocking), for `uv_pipe_open`.
    static func boundAbstractSocket(_ path: String) throws(UVError) -> OwnedDescriptor {
        // A throw drops the socket, which closes it.
        let socket = try newSocket(path)
        try systemCall("bind", address: display(path)) { withAddress(of: path) { bind(socket.descriptor, $0, $1) } }
        return socket
    }

    /// A new socket (close-on-exec, non-blocking) bound to `path`, for a
    /// listener RxUV accepts on itself: an abstract name as it is; a
    /// file-system path after `removeStaleSocket(at:)`, with `mode` set on
    /// the file before it listens. Sets `file` to the socket file's identity
    /// (device and inode) so that closing removes that file only if it is
    /// still this socket's; `nil` for an abstract name, which has no file.
    static func boundListeningSocket(_ path: String, mode: mode_t?, operation: StaticString, file: inout SocketFile?) throws(UVError) -> OwnedDescriptor {
        try validate(path, operation: operation)
        file = nil
        if isAbstract(path) {
            return try boundAbstractSocket(path)
        }
        try removeStaleSocket(at: path)
        // A throw drops the socket, which closes it.
        let socket = try newSocket(path)
        try systemCall("bind", address: path) { withAddress(of: path) { bind(socket.descriptor, $0, $1) } }
        var status = stat()
        do throws(UVError) {
            if let mode {
                try systemCall("chmod", address: path) { chmod(path, mode) }
            }
            try systemCall("lstat", address: path) { lstat(path, &status) }
        } catch {
            _ = try? systemCall("unlink", address: path) { unlink(path) }
            throw error
        }
        file = SocketFile(path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return socket
    }

    /// A socket file RxUV bound, to remove when its listener closes (libuv
    /// does that for its own pipes; a listener RxUV accepts on does it here).
    struct SocketFile: Sendable {
        let path: String
        let device: UInt64
        let inode: UInt64

        /// Removes the file if it is still the one bound (not a file another
        /// server put there since).
        func remove() {
            var status = stat()
            guard (try? systemCall("lstat", address: path) { lstat(path, &status) }) != nil,
                UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode
            else { return }
            do throws(UVError) {
                try systemCall("unlink", address: path) { unlink(path) }
            } catch {
                report(error, ReportContext(handle: "unix socket \(path)"))
            }
        }
    }

    /// A new socket connected to the abstract name `path`, for
    /// `uv_pipe_open`. An AF_UNIX connect completes at once: a full backlog
    /// gives `EAGAIN`, as libuv's own connect reports it.
    static func connectedAbstractSocket(_ path: String) throws(UVError) -> OwnedDescriptor {
        // A throw drops the socket, which closes it.
        let socket = try newSocket(path)
        try systemCall("uv_pipe_connect", address: display(path)) { withAddress(of: path) { connect(socket.descriptor, $0, $1) } }
        return socket
    }

    private static func newSocket(_ path: String) throws(UVError) -> OwnedDescriptor {
        OwnedDescriptor(
            try systemCall("socket", address: display(path)) {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
    }

    /// Calls `body` with `path` as a `sockaddr_un` and its length: the whole
    /// name for an abstract one, up to and with the NUL for a file.
    private static func withAddress(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(capacity))
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = pathOffset + min(bytes.count + (isAbstract(path) ? 0 : 1), capacity)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
