internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A `uv_fs_t` on libuv's thread pool: opening a file (`uv_fs_open`), or
/// reading or writing one buffer of it (`uv_fs_read`, `uv_fs_write`, at the
/// file's current position). Cancellable until the thread pool starts it.
final class UVFileRequest: CompletingRequest<(result: Int, bytes: ByteBuffer?)>, @unchecked Sendable {
    private let bytes: ByteBuffer?
    /// A read's buffer: the request's own, since a read the thread pool has
    /// started cannot be cancelled and writes into it until it completes.
    private let readBuffer: UnsafeMutableRawBufferPointer?

    /// Opens `path` for reading (closed on exec); `completion` gets the
    /// descriptor or a negative status (`UV_ECANCELED` when cancelled in
    /// time: a descriptor that arrives after its owner went must be closed).
    init(loop: Loop, opening path: String, completion: @escaping (Int) -> Void) throws(UVError) {
        self.bytes = nil
        self.readBuffer = nil
        super.init(loop: loop, type: UV_FS) { completion($0.result) }
        try submit("uv_fs_open", address: path) {
            uv_fs_open(loop.raw, fs, path, O_RDONLY | O_CLOEXEC, 0, uvFileRequestDone)
        }
    }

    /// Reads up to `capacity` bytes of `descriptor`; `completion` gets the
    /// count (0 at the end of the file) and the bytes, or a negative status.
    init(loop: Loop, reading descriptor: Int32, capacity: Int, at offset: Int64 = -1, completion: @escaping (Int, ByteBuffer?) -> Void) throws(UVError) {
        self.bytes = nil
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        self.readBuffer = buffer
        super.init(loop: loop, type: UV_FS) { completion($0.result, $0.bytes) }
        var descriptorBuffer = buffer.uvBuffer
        try submit("uv_fs_read", address: "fd \(descriptor)") {
            uv_fs_read(loop.raw, fs, descriptor, &descriptorBuffer, 1, offset, uvFileRequestDone)
        }
    }

    /// Writes `bytes` to `descriptor`; `completion` gets the count written
    /// or a negative status.
    init(loop: Loop, writing bytes: ByteBuffer, to descriptor: Int32, completion: @escaping (Int) -> Void) throws(UVError) {
        self.bytes = bytes
        self.readBuffer = nil
        super.init(loop: loop, type: UV_FS) { completion($0.result) }
        var descriptorBuffer = bytes.uvBuffer()
        try submit("uv_fs_write", address: "fd \(descriptor)") {
            uv_fs_write(loop.raw, fs, descriptor, &descriptorBuffer, 1, -1, uvFileRequestDone)
        }
    }

    private var fs: UnsafeMutablePointer<uv_fs_t> {
        pointer.assumingMemoryBound(to: uv_fs_t.self)
    }

    /// The outcome of the request: its result and a read's bytes, with the
    /// request's own memory cleaned up (`uv_fs_req_cleanup`).
    fileprivate func outcome() -> (result: Int, bytes: ByteBuffer?) {
        let result = fs.pointee.result
        uv_fs_req_cleanup(fs)
        let read = result > 0 ? readBuffer.map { ByteBuffer(copying: UnsafeRawPointer($0.baseAddress!), count: result) } : nil
        return (result, read)
    }

    deinit {
        readBuffer?.deallocate()
    }
}

private func uvFileRequestDone(_ request: UnsafeMutablePointer<uv_fs_t>?) {
    let owner = Unmanaged<UVRequest>.fromOpaque(request!.pointee.data!).takeUnretainedValue()
    UVFileRequest.complete(request, with: unsafeDowncast(owner, to: UVFileRequest.self).outcome())
}
