@_spi(Bridge) import RxCore

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
///
/// A `LoopStart`: subscribed on the loop thread, the first offers to the
/// direct path are made during the subscribe, and a range it takes whole
/// (a file in the page cache to a socket with room, the common case of a
/// server's response) completes before `subscribe` returns, with no sink;
/// what it does not take goes on in a sink from there. From another thread
/// the send starts through the loop's door.
final class FileSend: LoopStart {
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

    fileprivate let stream: any ByteStream
    fileprivate let file: OpenFile
    fileprivate let range: Range<Int64>
    fileprivate let direct: DirectPath?

    private init(stream: any ByteStream, file: OpenFile, range: Range<Int64>, direct: DirectPath?) {
        self.stream = stream
        self.file = file
        self.range = range
        self.direct = direct
        super.init(loop: stream.loop)
    }

    /// The Completable of one send: starts on the loop thread when
    /// subscribed (at once there, through the loop's door otherwise);
    /// disposing stops it after the chunk in flight, untold.
    static func completable(stream: any ByteStream, file: OpenFile, range: Range<Int64>, direct: DirectPath?) -> Completable {
        Completable(raw: FileSend(stream: stream, file: file, range: range, direct: direct))
    }

    /// Starts the send on the loop thread: the direct path is offered the
    /// range at once; what it declines is copied by a sink from there,
    /// whose disposal stops the send after the chunk in flight.
    override func start<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        guard range.lowerBound >= 0 else {
            observer.on(.error(UVError(code: .invalidArgument, operation: "sendfile", address: "\(file.path): a range from \(range.lowerBound)")))
            return Disposables.create()
        }
        var offset = range.lowerBound
        var left = direct
        if let direct {
            do throws(UVError) {
                guard let declined = try offer(from: &offset, to: direct) else {
                    observer.onCompleted()
                    return Disposables.create()
                }
                left = declined
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
        // The rest is copied (the direct path, if any, has just declined
        // it): a sink goes on from here.
        return subscribeSink { cancel in
            let sink = FileSendSink(send: self, observer: observer, cancel: cancel, from: offset, direct: left, declined: direct != nil)
            sink.step()
            return (sink: sink, subscription: Disposables.create())
        }
    }

    /// Offers the range from `offset` on to `direct`, moving `offset` past
    /// what it sends, until all is sent (`nil`) or it declines: then the
    /// direct path to offer after the next copied chunk (`.some(nil)` once
    /// it said `unsupported`). Throws its error, or the end of the file
    /// when it sends nothing. Loop thread.
    fileprivate func offer(from offset: inout Int64, to direct: @escaping DirectPath) throws(UVError) -> DirectPath?? {
        while offset < range.upperBound {
            switch try direct(file, offset, Int(min(range.upperBound - offset, Int64(Self.chunkSize)))) {
            case .sent(0):
                throw endOfFile(at: offset)
            case .sent(let sent):
                offset += Int64(sent)
            case .notNow:
                return .some(direct)
            case .unsupported:
                return .some(nil)
            }
        }
        return nil
    }

    /// The error of a file that ends at `offset`, before the range does.
    fileprivate func endOfFile(at offset: Int64) -> UVError {
        UVError(code: .endOfFile, operation: "sendfile", address: "\(file.path) ends at \(offset), before the range does (\(range.upperBound))")
    }
}

/// One subscription to a `FileSend`: its offset, and the chunk write in
/// flight. It owns no handle: disposing stops the next step and the chunk
/// write's notification. Loop-thread state.
private final class FileSendSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == Never {
    private let send: FileSend
    private var offset: Int64
    private var direct: FileSend.DirectPath?
    /// The next step copies without offering the direct path first.
    private var declined: Bool
    /// A step is running: a write that completes inside it asks for one more
    /// (`again`) instead of stepping inside itself.
    private var stepping = false
    private var again = false
    private var chunkWrite: Disposable?

    /// A sink that sends from `offset` on, offering `direct` (the send's
    /// direct path, or none once it said `unsupported`); `declined`: the
    /// direct path has just declined `offset`, so the first step copies.
    init(send: FileSend, observer: Observer, cancel: SinkDisposer, from offset: Int64, direct: FileSend.DirectPath?, declined: Bool) {
        self.send = send
        self.offset = offset
        self.direct = direct
        self.declined = declined
        super.init(loop: send.stream.loop, observer: observer, cancel: cancel)
    }

    override func didRelease() {
        chunkWrite?.dispose()
        chunkWrite = nil
    }

    /// Sends what it can now, then waits for a chunk's write. Loop thread.
    fileprivate func step() {
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
        let (file, end) = (send.file, send.range.upperBound)
        while offset < end {
            guard !isDisposed else { return }
            if let direct, !declined {
                do throws(UVError) {
                    guard let left = try send.offer(from: &offset, to: direct) else { break }
                    self.direct = left
                } catch {
                    return finish(error)
                }
            }
            declined = false
            let chunk: ByteBuffer
            do throws(UVError) {
                chunk = try file.read(count: Int(min(end - offset, Int64(FileSend.chunkSize))), at: offset)
            } catch {
                return finish(error)
            }
            guard chunk.count > 0 else { return finish(send.endOfFile(at: offset)) }
            offset += Int64(chunk.count)
            chunkWrite = send.stream.write(chunk).subscribe(onCompleted: { [self] in step() }, onError: { [self] error in finish(error) })
            return
        }
        finish(nil)
    }

    private func finish(_ error: (any Error)?) {
        chunkWrite = nil
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }
}
