internal import CLibUV

extension ByteBuffer {
    /// A libuv buffer descriptor for the bytes from `offset` on. Built field
    /// by field: `uv_buf_init` takes a 32-bit length, and would trap on a
    /// buffer of 4 GiB or more, where `len` is a `size_t`.
    func uvBuffer(from offset: Int = 0) -> uv_buf_t {
        uv_buf_t(base: UnsafeMutableRawPointer(baseAddress + offset).assumingMemoryBound(to: CChar.self), len: count - offset)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// A libuv buffer descriptor for this memory (see `ByteBuffer.uvBuffer`).
    var uvBuffer: uv_buf_t {
        uv_buf_t(base: baseAddress?.assumingMemoryBound(to: CChar.self), len: count)
    }
}
