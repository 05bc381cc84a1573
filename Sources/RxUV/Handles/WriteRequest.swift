internal import CLibUV

/// A `uv_write_t` with the bytes it writes, kept alive until libuv is done.
final class WriteRequest: CompletingRequest<Int32>, @unchecked Sendable {
    private let payload: StreamWritePayload

    /// Submits the bytes of `payload` from byte `offset` on for writing on
    /// `stream` (`uv_write`, with one `uv_buf_t` per buffer); `completion`
    /// gets libuv's status. Throws if the submit fails (no callback follows).
    init(stream: UVStream, payload: StreamWritePayload, from offset: Int = 0, peer: @autoclosure () -> String?, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.payload = payload
        super.init(loop: stream.loop, type: UV_WRITE, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_write_t.self)
        try submit("uv_write", address: peer()) {
            payload.withBuffers(from: offset) { buffers, count in
                uv_write(request, stream.stream, buffers, UInt32(count)) { CompletingRequest<Int32>.complete($0, with: $1) }
            }
        }
    }
}
