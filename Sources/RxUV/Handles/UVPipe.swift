internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A `uv_pipe_t` on a Unix-domain stream socket: a listener or a connection.
/// What it shares with other streams is in `UVStream`.
final class UVPipe: UVStream, @unchecked Sendable {
    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_NAMED_PIPE, kind: .pipe)
        try adopt("uv_pipe_init") { uv_pipe_init(loop.raw, pipe, 0) }
    }

    var pipe: UnsafeMutablePointer<uv_pipe_t> {
        pointer.assumingMemoryBound(to: uv_pipe_t.self)
    }

    /// Adopts an open Unix-domain socket descriptor (`uv_pipe_open`); the
    /// handle closes it when it closes.
    func open(_ descriptor: Int32, address: String) throws(UVError) {
        try uvCall("uv_pipe_open", address: address) { uv_pipe_open(pipe, descriptor) }
    }

    /// The path this socket is bound to (`uv_pipe_getsockname`): a
    /// leading NUL for an abstract name, `nil` for an unbound socket.
    var localPath: String? {
        name(uv_pipe_getsockname)
    }

    /// The path of the peer's socket (`uv_pipe_getpeername`), `nil` when the
    /// peer is unbound (a client usually is).
    var peerPath: String? {
        name(uv_pipe_getpeername)
    }

    /// The peer process's credentials (`SO_PEERCRED`), as the kernel recorded
    /// them at `connect` or `listen`.
    var peerCredentials: PeerCredentials? {
        guard let descriptor else { return nil }
        var credentials = PeerCredentialsLayout()
        var length = socklen_t(MemoryLayout<PeerCredentialsLayout>.size)
        // Unreadable credentials are reported as none (the peer is gone).
        guard (try? systemCall("getsockopt") { getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }) != nil else { return nil }
        return PeerCredentials(processID: credentials.pid, userID: credentials.uid, groupID: credentials.gid)
    }

    private func name(_ query: (UnsafePointer<uv_pipe_t>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?) -> Int32) -> String? {
        guard isOpen else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        var length = buffer.count
        guard query(pipe, &buffer, &length) == 0, length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Linux's `struct ucred`, which Glibc's module map hides (it needs
/// `_GNU_SOURCE`): the layout `SO_PEERCRED` fills.
private struct PeerCredentialsLayout {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
