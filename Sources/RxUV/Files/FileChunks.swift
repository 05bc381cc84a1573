@_spi(Bridge) import RxCore

/// The observable of `loop.rx.fileChunks` and of
/// `ByteStream.write(fileAt:)`: opens the file (`uv_fs_open`) and
/// reads it chunk by chunk (`FileReadingSink`). With a `destination`, each
/// chunk is written to it and the next read only when that write is done;
/// nothing is emitted, and the sequence completes after the last write.
final class FileChunks: Producer<ByteBuffer> {
    private let loop: Loop
    private let path: String
    private let chunkSize: Int
    private let range: Range<Int64>?
    private let destination: (any ByteStream)?

    /// `chunkSize` between 1 byte and 16 MiB: each read allocates a chunk.
    static func clamped(_ chunkSize: Int) -> Int {
        min(max(chunkSize, 1), 16 * 1024 * 1024)
    }

    init(loop: Loop, path: String, chunkSize: Int, range: Range<Int64>? = nil, destination: (any ByteStream)? = nil) {
        self.loop = loop
        self.path = path
        self.chunkSize = chunkSize
        self.range = range
        self.destination = destination
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = FileChunksSink(chunks: self, observer: observer, cancel: cancel)
        sink.start("uv_fs_open")
        return (sink: sink, subscription: Disposables.create())
    }

    private final class FileChunksSink<Observer: ObserverType>: FileReadingSink<Observer>, @unchecked Sendable where Observer.Element == ByteBuffer {
        private let chunks: FileChunks

        init(chunks: FileChunks, observer: Observer, cancel: SinkDisposer) {
            self.chunks = chunks
            super.init(loop: chunks.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            let path = chunks.path
            let request = try UVFileRequest(loop: loop, opening: path) { [self] result in
                disown()
                guard result >= 0 else {
                    forwardError(UVError(status: Int32(result), operation: "uv_fs_open", address: path))
                    return
                }
                do throws(UVError) {
                    // Owned from here: closed on dispose, even one that
                    // came while the open was running.
                    try readFile(OwnedDescriptor(Int32(result)), name: path, chunkSize: chunks.chunkSize, range: chunks.range)
                } catch {
                    forwardError(error)
                }
                if isDisposed {
                    closeFile()
                }
            }
            own(request)
        }

        override func fileChunkRead(_ bytes: ByteBuffer) {
            guard let destination = chunks.destination else {
                super.fileChunkRead(bytes)
                return
            }
            // Through the stream's face: the chunk is the stream's to
            // write, whatever carries it.
            _ = destination.write(bytes).subscribe(
                onCompleted: { [self] in chunkWritten(nil) },
                onError: { [self] error in chunkWritten(error) })
        }

        /// The last chunk's write is done: read the next, or fail.
        private func chunkWritten(_ error: (any Error)?) {
            guard !isDisposed else { return }
            if let error {
                closeFile()
                forwardError(error)
                return
            }
            do throws(UVError) {
                try readNextChunk()
            } catch {
                closeFile()
                forwardError(error)
            }
        }
    }
}

extension ByteStream {
    /// Writes the file at `path` to this stream, `chunkSize` bytes at a
    /// time: each chunk read on libuv's thread pool (`uv_fs_read`) and
    /// written with `write(_:)`, the next one read only
    /// when the last is written, so a slow peer holds one chunk in memory,
    /// not the file. Completes on the loop thread after the last write;
    /// fails with the error of the open, a read or a write. Disposing
    /// stops after the chunk in flight and closes the file (the stream
    /// stays open). `chunkSize` is taken between 1 byte and 16 MiB.
    public func write(fileAt path: String, chunkSize: Int = 64 * 1024) -> Completable {
        FileChunks(loop: loop, path: path, chunkSize: FileChunks.clamped(chunkSize), destination: self).ignoreElements().asCompletable()
    }

    /// Writes the bytes of `range` (offsets into the file at `path`) to this
    /// stream, as `write(fileAt:chunkSize:)` writes a whole file, each chunk
    /// read at its offset (`uv_fs_read` with a position): what an HTTP
    /// `Range` answer sends. Fails with `UVError.Code.endOfFile` when the
    /// file ends before the range does (it shrank since it was measured).
    public func write(fileAt path: String, range: Range<Int64>, chunkSize: Int = 64 * 1024) -> Completable {
        FileChunks(loop: loop, path: path, chunkSize: FileChunks.clamped(chunkSize), range: range, destination: self).ignoreElements().asCompletable()
    }
}
