internal import CLibUV
import RxCore

/// The bytes of one write on a stream (`ByteStream.startWrite`): one
/// buffer, or several written in order as one write (a libuv stream's one
/// vectored write, a TLS stream's records in one transport write), with
/// no array made for the common single buffer.
public enum StreamWritePayload: Sendable {
    /// One buffer.
    case one(ByteBuffer)
    /// Several buffers, in order, as one write.
    case many([ByteBuffer])

    /// The number of bytes.
    public var count: Int {
        switch self {
        case .one(let buffer):
            buffer.count
        case .many(let buffers):
            buffers.reduce(0) { $0 + $1.count }
        }
    }

    /// Calls `body` with libuv buffer descriptors for the bytes from
    /// `offset` on (valid only during the call; libuv copies descriptors,
    /// and the payload keeps the bytes alive) and their number.
    func withBuffers<Result>(from offset: Int, _ body: (UnsafeMutablePointer<uv_buf_t>, Int) -> Result) -> Result {
        switch self {
        case .one(let buffer):
            var descriptor = buffer.uvBuffer(from: offset)
            return body(&descriptor, 1)
        case .many(let buffers):
            return withUnsafeTemporaryAllocation(of: uv_buf_t.self, capacity: max(buffers.count, 1)) { descriptors in
                // Buffers wholly before `offset` were written already; the
                // one it falls in is written from there on.
                var skip = offset
                var used = 0
                for buffer in buffers {
                    if skip >= buffer.count {
                        skip -= buffer.count
                        continue
                    }
                    descriptors[used] = buffer.uvBuffer(from: skip)
                    skip = 0
                    used += 1
                }
                if used == 0 {
                    // Nothing left (or nothing at all): one empty buffer, so
                    // that libuv still reports the write in order.
                    descriptors[0] = uv_buf_t(base: nil, len: 0)
                    used = 1
                }
                return body(descriptors.baseAddress!, used)
            }
        }
    }
}
