@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A reading subscription that reads a stream (as `StreamReadingSink`) or a
/// regular file, which epoll cannot watch: chunk after chunk with
/// `uv_fs_read` on libuv's thread pool, each request owned (so disposing
/// cancels it), the next one submitted when the last chunk was delivered.
/// Serves `loop.rx.stdin` (when standard input is a file),
/// `loop.rx.fileChunks` and `StreamConnection.write(fileAt:)`.
///
/// The descriptor is closed at the end of the file, on a failure, and on
/// dispose (once a read in flight has come back: the pool may be reading
/// into it).
class FileReadingSink<Observer: ObserverType>: StreamReadingSink<Observer>, @unchecked Sendable where Observer.Element == ByteBuffer {
    // Loop-thread state.
    private var file: OwnedDescriptor?
    private var isReadingFile = false
    /// The path, or what names the file in errors.
    private var fileName = ""
    private var chunkSize = 64 * 1024
    /// Where the next read starts; -1 reads at the descriptor's position
    /// (standard input, which may not seek).
    private var position: Int64 = -1
    /// The bytes still to read of a range; `nil` reads to the end.
    private var remaining: Int64?

    /// Starts reading `descriptor`, which this sink now owns: the bytes of
    /// `range` (offsets into the file), or from the descriptor's position
    /// to the end when it is `nil`. Loop thread.
    final func readFile(_ descriptor: consuming OwnedDescriptor, name: String, chunkSize: Int, range: Range<Int64>? = nil) throws(UVError) {
        file = consume descriptor
        fileName = name
        self.chunkSize = chunkSize
        if let range {
            position = range.lowerBound
            remaining = Int64(range.count)
        }
        try readNextChunk()
    }

    /// Reads the next chunk; `fileChunkRead` gets it. Loop thread.
    final func readNextChunk() throws(UVError) {
        guard let file = file?.descriptor, !isDisposed else { return }
        if remaining == 0 {
            closeFile()
            fileEnded()
            return
        }
        let capacity = remaining.map { Int(min(Int64(chunkSize), $0)) } ?? chunkSize
        let request = try UVFileRequest(loop: loop, reading: file, capacity: capacity, at: position) { [self] count, bytes in
            disown()
            isReadingFile = false
            guard !isDisposed else {
                closeFile()
                return
            }
            if count > 0, let bytes {
                if position >= 0 { position += Int64(count) }
                if let left = remaining { remaining = left - Int64(count) }
                fileChunkRead(bytes)
            } else if count == 0, let left = remaining, left > 0 {
                // The file is shorter than the range promised (it shrank).
                closeFile()
                forwardError(UVError(code: .endOfFile, operation: "uv_fs_read", address: fileName))
            } else if count == 0 {
                closeFile()
                fileEnded()
            } else {
                closeFile()
                forwardError(UVError(status: Int32(count), operation: "uv_fs_read", address: fileName))
            }
        }
        isReadingFile = true
        own(request)
    }

    /// A chunk arrived. By default: delivered, then the next one read.
    func fileChunkRead(_ bytes: ByteBuffer) {
        forwardNext(bytes)
        do throws(UVError) {
            try readNextChunk()
        } catch {
            closeFile()
            forwardError(error)
        }
    }

    /// The end of the file (the descriptor is closed). By default: completed.
    func fileEnded() {
        forwardCompleted()
    }

    /// Closes the descriptor, unless a read still uses it (its completion
    /// closes it then).
    final func closeFile() {
        guard !isReadingFile else { return }
        file = nil
    }

    override func didRelease() {
        super.didRelease()
        stream = nil
        closeFile()
    }
}
