internal import CLibUV

/// A `uv_connect_t` for one TCP connection attempt (`uv_tcp_connect`) or
/// one Unix-domain socket connection (`uv_pipe_connect`).
final class ConnectRequest: CompletingRequest<Int32>, @unchecked Sendable {
    /// Connects `tcp` to `address`; `completion` gets libuv's status.
    /// Throws if the submit fails (no callback follows).
    init(tcp: UVTCP, to address: SocketAddress, completion: @escaping (Int32) -> Void) throws(UVError) {
        super.init(loop: tcp.loop, type: UV_CONNECT, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_connect_t.self)
        try submit("uv_tcp_connect", address: address.description) {
            address.withSockAddr { uv_tcp_connect(request, tcp.tcp, $0) { CompletingRequest<Int32>.complete($0, with: $1) } }
        }
    }

    /// Connects `pipe` to the file-system `path`; `completion` gets libuv's
    /// status (`uv_pipe_connect` returns nothing and reports every failure
    /// there). Throws only when a fault is injected (debug builds).
    init(pipe: UVPipe, path: String, completion: @escaping (Int32) -> Void) throws(UVError) {
        super.init(loop: pipe.loop, type: UV_CONNECT, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_connect_t.self)
        try submit("uv_pipe_connect", address: path) {
            uv_pipe_connect(request, pipe.pipe, path) { CompletingRequest<Int32>.complete($0, with: $1) }
            return 0
        }
    }
}
