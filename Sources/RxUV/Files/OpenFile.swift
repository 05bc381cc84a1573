@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A regular file opened for reading, with its status as of the open: what
/// `loop.rx.openFile(path:)` and `OpenFileCache` hand out and
/// `ByteStream.write(_:range:)` sends.
///
/// The descriptor is the object's own: it closes when the last reference
/// goes (a response still sending it keeps it open), from whichever thread.
/// Reads go by offset (`pread`, `sendfile`), never through a shared
/// position, so one open file may be sent to many streams at once. A file
/// replaced by a rename after the open is still the old one here: its
/// bytes, its `status`.
public final class OpenFile: Sendable {
    /// The path it was opened by.
    public let path: String
    /// The file's status when it was opened (`uv_fs_fstat` on its
    /// descriptor): its size bounds what `write(_:range:)` may send.
    public let status: FileStatus
    private let owned: OwnedDescriptor

    init(path: String, status: FileStatus, descriptor: consuming OwnedDescriptor) {
        self.path = path
        self.status = status
        self.owned = descriptor
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// The descriptor, for `pread` and `sendfile` while this object lives.
    var descriptor: Int32 {
        owned.descriptor
    }

    /// Reads up to `count` bytes at `offset` (`pread`, on the calling
    /// thread): fewer at the file's end, none past it.
    func read(count: Int, at offset: Int64) throws(UVError) -> ByteBuffer {
        var failure: UVError?
        let bytes = ByteBuffer(
            unsafeUninitializedCapacity: count,
            initializingWith: { (buffer: UnsafeMutableRawBufferPointer) -> Int in
                do throws(UVError) {
                    return try read(into: buffer, at: offset)
                } catch {
                    failure = error
                    return 0
                }
            })
        if let failure { throw failure }
        return bytes
    }

    /// Reads into `buffer` at `offset` (`pread`, on the calling thread),
    /// for a writer that hands its own memory (an HTTP/2 session's frame):
    /// how many bytes it read, fewer at the file's end, none past it.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(UVError) -> Int {
        Int(try systemCall("pread", address: path) { Int32(truncatingIfNeeded: pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))) })
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
