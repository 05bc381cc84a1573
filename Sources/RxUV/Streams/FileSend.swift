@_spi(Bridge) import RxCore
import Synchronization

/// One send of a range of an open file to a stream, on the stream's loop
/// thread: what `ByteStream.write(_:range:)` runs.
///
/// Each step first offers the rest of the range to the stream's direct
/// path, if it has one (a libuv stream's `sendfile(2)`: the kernel copies
/// from the page cache to the socket, while nothing is queued before it).
/// What that does not take now (the socket's buffer is full, writes are
/// queued or held before it, or the stream has no such path: TLS) is read
/// a chunk at a time (`pread`, up to 64 KiB, on the loop thread) and written
/// with the stream's `write`, in order behind what is queued; once a chunk
/// is written the next step offers the direct path again. So a slow peer
/// holds at most one chunk in memory, and a fast one gets the file with no
/// copy at all.
///
/// The file is read on the loop thread, as nginx reads without `aio`: fast
/// for a file in the page cache, a wait on the disk otherwise.
final class FileSend: @unchecked Sendable {
    /// What a stream's direct path did with an offer.
    enum DirectSend {
        /// Sent this many bytes (0: the file ended).
        case sent(Int)
        /// Nothing now: the copy path takes the next chunk.
        case notNow
        /// The stream cannot take this file this way (`EINVAL`): copy
        /// from here on.
        case unsupported
    }

    /// Offers `count` bytes of `file` from `offset` to the stream directly.
    /// Loop thread.
    typealias DirectPath = (_ file: OpenFile, _ offset: Int64, _ count: Int) throws(UVError) -> DirectSend

    /// The largest chunk copied, and the most one direct offer sends.
    static let chunkSize = 64 * 1024

    private let stream: any ByteStream
    private let file: OpenFile
    private var offset: Int64
    private let end: Int64
    private var direct: DirectPath?
    private var observer: Completable.CompletableObserver?
    private let cancelled = Atomic<Bool>(false)
    /// A step is running: a write that completes inside it asks for one more
    /// (`again`) instead of stepping inside itself.
    private var stepping = false
    private var again = false
    private var chunkWrite: Disposable?

    private init(stream: any ByteStream, file: OpenFile, range: Range<Int64>, direct: DirectPath?, observer: @escaping Completable.CompletableObserver) {
        self.stream = stream
        self.file = file
        self.offset = range.lowerBound
        self.end = range.upperBound
        self.direct = direct
        self.observer = observer
    }

    /// The Completable of one send: starts on the loop thread when
    /// subscribed (at once there); disposing stops it after the chunk in
    /// flight, untold.
    static func completable(stream: any ByteStream, file: OpenFile, range: Range<Int64>, direct: DirectPath?) -> Completable {
        Completable.create { observer in
            guard range.lowerBound >= 0 else {
                observer(.error(UVError(code: .invalidArgument, operation: "sendfile", address: "\(file.path): a range from \(range.lowerBound)")))
                return Disposables.create()
            }
            let send = FileSend(stream: stream, file: file, range: range, direct: direct, observer: observer)
            if !stream.loop.enter({ send.step() }) {
                observer(.error(UVError(code: .cancelled, operation: "sendfile", address: "\(file.path): the loop is closed")))
            }
            return Disposables.create { send.cancel() }
        }
    }

    private func cancel() {
        cancelled.store(true, ordering: .relaxed)
        stream.loop.enter { [self] in
            chunkWrite?.dispose()
            chunkWrite = nil
            observer = nil
        }
    }

    /// Sends what it can now, then waits for a chunk's write. Loop thread.
    private func step() {
        if stepping {
            again = true
            return
        }
        stepping = true
        repeat {
            again = false
            advance()
        } while again
        stepping = false
    }

    private func advance() {
        while offset < end {
            guard observer != nil, !cancelled.load(ordering: .relaxed) else { return }
            let count = Int(min(end - offset, Int64(Self.chunkSize)))
            if let direct {
                do throws(UVError) {
                    switch try direct(file, offset, count) {
                    case .sent(0):
                        return finish(endOfFile())
                    case .sent(let sent):
                        offset += Int64(sent)
                        continue
                    case .notNow:
                        break
                    case .unsupported:
                        self.direct = nil
                    }
                } catch {
                    return finish(error)
                }
            }
            let chunk: ByteBuffer
            do throws(UVError) {
                chunk = try file.read(count: count, at: offset)
            } catch {
                return finish(error)
            }
            guard chunk.count > 0 else { return finish(endOfFile()) }
            offset += Int64(chunk.count)
            chunkWrite = stream.write(chunk).subscribe(onCompleted: { [self] in step() }, onError: { [self] error in finish(error) })
            return
        }
        finish(nil)
    }

    private func endOfFile() -> UVError {
        UVError(code: .endOfFile, operation: "sendfile", address: "\(file.path) ends at \(offset), before the range does (\(end))")
    }

    private func finish(_ error: (any Error)?) {
        guard let observer else { return }
        self.observer = nil
        chunkWrite = nil
        observer(error.map { .error($0) } ?? .completed)
    }
}
