internal import CLibUV

/// A `uv_shutdown_t`: half-closes a stream after its queued writes.
final class ShutdownRequest: CompletingRequest<Int32>, @unchecked Sendable {
    /// Submits the half-close of `stream` (`uv_shutdown`); `completion` gets
    /// libuv's status. Throws if the submit fails (no callback follows).
    init(stream: UVStream, peer: @autoclosure () -> String?, completion: @escaping (Int32) -> Void) throws(UVError) {
        super.init(loop: stream.loop, type: UV_SHUTDOWN, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_shutdown_t.self)
        try submit("uv_shutdown", address: peer()) {
            uv_shutdown(request, stream.stream) { CompletingRequest<Int32>.complete($0, with: $1) }
        }
    }
}
