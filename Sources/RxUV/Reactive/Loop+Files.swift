@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// The whole contents of the file at `path`, read on libuv's thread pool
    /// (`uv_fs_open`, `uv_fs_fstat`, `uv_fs_read`, `uv_fs_close`, in one
    /// trip to the pool); the result arrives on the loop thread.
    ///
    /// Fails with `EFBIG` when the file holds more than `maxSize` bytes
    /// (checked before reading and while reading, so a file that grows is
    /// caught too); never truncates. Other failures are the `UVError` of the
    /// call, naming it and the path (`ENOENT`, `EACCES`, `EISDIR`...).
    /// Disposing before a pool thread took the work cancels it; after, the
    /// result is dropped.
    public func readFile(path: String, maxSize: Int = 64 * 1024 * 1024) -> Single<ByteBuffer> {
        work { () throws -> ByteBuffer in
            guard maxSize >= 0 else {
                throw UVError(code: .invalidArgument, operation: "readFile", address: "\(path): maxSize \(maxSize) is negative")
            }
            let descriptor = try BlockingFileSystem.open(path, flags: O_RDONLY)
            defer { try? BlockingFileSystem.close(descriptor, path: path) }
            let status = try BlockingFileSystem.stat(descriptor, path: path)
            guard status.size <= UInt64(maxSize) else {
                throw Self.tooLarge(path, maxSize)
            }
            // The size is a hint (a file may grow, and /proc's say 0): the
            // buffer grows, up to one byte past `maxSize`, which tells a
            // file that holds more.
            let cap = maxSize == Int.max ? Int.max : maxSize + 1
            let hint = Int(status.size) == Int.max ? Int.max : Int(status.size) + 1
            var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(hint, 4096), cap), alignment: 16)
            defer { storage.deallocate() }
            var total = 0
            while true {
                if total == storage.count {
                    guard total <= maxSize else { throw Self.tooLarge(path, maxSize) }
                    let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(total.multipliedReportingOverflow(by: 2).overflow ? Int.max : total * 2, cap), alignment: 16)
                    grown.copyMemory(from: UnsafeRawBufferPointer(storage))
                    storage.deallocate()
                    storage = grown
                }
                let count = try BlockingFileSystem.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: storage[total...]), path: path)
                if count == 0 { break }
                total += count
                if total > maxSize {
                    throw Self.tooLarge(path, maxSize)
                }
            }
            return ByteBuffer(UnsafeRawBufferPointer(rebasing: storage[..<total]))
        }
    }

    private static func tooLarge(_ path: String, _ maxSize: Int) -> UVError {
        UVError(code: .fileTooLarge, operation: "readFile", address: "\(path) holds more than maxSize (\(maxSize) bytes)")
    }

    /// Writes `bytes` to the file at `path` on libuv's thread pool and
    /// completes on the loop thread.
    ///
    /// With `atomic` (the default), readers see the old contents or the
    /// new, never a part: the bytes go to a temporary file in the same
    /// directory (`uv_fs_mkstemp`), which is flushed to disk (`uv_fs_fsync`)
    /// and renamed over `path` (`uv_fs_rename`), and the directory is
    /// flushed too; the new file keeps the permissions of the one it
    /// replaces (a new one gets `0644`). A failure or a crash part-way
    /// leaves the old file whole (the temporary file is removed on
    /// failure). Only flushing the directory comes after the rename: if that
    /// fails, the Completable fails though the file was replaced. Without
    /// `atomic`, the file is truncated and written in place (created `0666`
    /// less the umask).
    ///
    /// Fails with the `UVError` of the call that failed, naming it and the
    /// path. Disposing before a pool thread took the work cancels it;
    /// after, the write goes on to its end.
    public func writeFile(path: String, bytes: ByteBuffer, atomic: Bool = true) -> Completable {
        work { () throws in
            guard atomic else {
                let descriptor = try BlockingFileSystem.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
                do throws(UVError) {
                    try BlockingFileSystem.writeAll(descriptor, bytes, path: path)
                } catch {
                    try? BlockingFileSystem.close(descriptor, path: path)
                    throw error
                }
                // A deferred write error (NFS, a full quota) shows at close.
                try BlockingFileSystem.close(descriptor, path: path)
                return
            }
            let components = PathComponents(path)
            let existing = try BlockingFileSystem.stat(path)
            let temporary = try BlockingFileSystem.makeTemporaryFile(beside: path, template: components.sibling(prefix: ".", suffix: ".XXXXXX"))
            do throws(UVError) {
                defer { try? BlockingFileSystem.close(temporary.descriptor, path: temporary.path) }
                try BlockingFileSystem.writeAll(temporary.descriptor, bytes, path: temporary.path)
                try BlockingFileSystem.changeMode(temporary.descriptor, to: existing.exists ? existing.permissions : 0o644, path: temporary.path)
                try BlockingFileSystem.sync(temporary.descriptor, path: temporary.path)
                try BlockingFileSystem.rename(temporary.path, to: path)
            } catch {
                try? BlockingFileSystem.unlink(temporary.path)
                throw error
            }
            // The rename lives in the directory: flush it too.
            let directoryDescriptor = try BlockingFileSystem.open(components.directory, flags: O_RDONLY | O_DIRECTORY)
            defer { try? BlockingFileSystem.close(directoryDescriptor, path: components.directory) }
            try BlockingFileSystem.sync(directoryDescriptor, path: components.directory)
        }.asCompletable()
    }

    /// The regular file at `path`, opened for reading, with its status: one
    /// trip to libuv's thread pool (`uv_fs_open`, `uv_fs_fstat`); the
    /// result arrives on the loop thread. What `ByteStream.write(_:range:)`
    /// sends; `OpenFileCache` keeps them open across requests.
    ///
    /// Fails with the call's `UVError` (`ENOENT`, `EACCES`...), and with
    /// `EISDIR` or `EINVAL` for a directory or anything else that is not a
    /// regular file (a FIFO is opened without waiting for a writer, then
    /// refused). Disposing before a pool thread took the work cancels it;
    /// after, the file is closed as the result is dropped.
    public func openFile(path: String) -> Single<OpenFile> {
        work { () throws -> OpenFile in
            let descriptor = OwnedDescriptor(try BlockingFileSystem.open(path, flags: O_RDONLY | O_NONBLOCK))
            let status = try BlockingFileSystem.stat(descriptor.descriptor, path: path)
            guard status.kind == .regular else {
                throw UVError(code: status.kind == .directory ? .isADirectory : .invalidArgument, operation: "openFile", address: "\(path) is not a regular file")
            }
            return OpenFile(path: path, status: status, descriptor: descriptor)
        }
    }

    /// The status of `path` (`uv_fs_stat`, following symbolic links), from
    /// libuv's thread pool, on the loop thread. A missing path succeeds with
    /// `FileStatus.missing`; other failures are the call's `UVError`
    /// (`EACCES`, `ENOTDIR`...).
    public func stat(path: String) -> Single<FileStatus> {
        work { () throws -> FileStatus in try BlockingFileSystem.stat(path) }
    }

    /// The file at `path`, `chunkSize` bytes at a time, read on libuv's
    /// thread pool (`uv_fs_open`, then `uv_fs_read`) and delivered on the
    /// loop thread.
    ///
    /// `chunkSize` is taken between 1 byte and 16 MiB.
    ///
    /// The next chunk is read only when the subscriber's `onNext` for the
    /// last one returned, so one chunk is in memory at a time. Completes at
    /// the end of the file; fails with the call's `UVError` (`ENOENT`...).
    /// Disposing cancels the read in flight (or drops its chunk) and closes
    /// the descriptor. For a consumer that finishes a chunk later (a write
    /// to a slow connection), `StreamConnection.write(fileAt:chunkSize:)`
    /// reads the next chunk only when the last is written.
    public func fileChunks(path: String, chunkSize: Int = 64 * 1024) -> Observable<ByteBuffer> {
        FileChunks(loop: base, path: path, chunkSize: FileChunks.clamped(chunkSize))
    }

    /// The bytes of `range` (offsets into the file at `path`), chunk by
    /// chunk, as `fileChunks(path:chunkSize:)` reads a whole file, each
    /// chunk read at its offset (`uv_fs_read` with a position). Completes
    /// after the range's last byte; fails with `UVError.Code.endOfFile`
    /// when the file ends first.
    public func fileChunks(path: String, range: Range<Int64>, chunkSize: Int = 64 * 1024) -> Observable<ByteBuffer> {
        FileChunks(loop: base, path: path, chunkSize: FileChunks.clamped(chunkSize), range: range)
    }
}
