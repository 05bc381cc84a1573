internal import CLibUV
@_spi(Bridge) import RxCore

/// The bytes of one write: one buffer, or several written as one vectored
/// write (no array for the common single buffer).
enum StreamWritePayload {
    case one(ByteBuffer)
    case many([ByteBuffer])

    /// The number of bytes.
    var count: Int {
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

/// What `StreamConnection.writeAtOnce` did with a write.
enum StreamWriteAttempt {
    /// The kernel took every byte.
    case written
    /// The bytes from this offset on must be queued with `uv_write`.
    case mustQueue(from: Int)
    /// The write failed; nothing more will happen.
    case failed(UVError)
}

/// The observable of `StreamConnection.write(_:)`. On the loop thread with
/// nothing queued it writes during `subscribe` and finishes there, with no
/// sink and no request (`start`, which `write(_:notifying:)` calls with no
/// producer at all). Otherwise a `StreamWriteSink` makes the attempt on the
/// loop thread and waits for `uv_write`.
final class StreamWrite: Producer<Never> {
    private let stream: StreamConnection
    private let payload: StreamWritePayload

    init(stream: StreamConnection, payload: StreamWritePayload) {
        self.stream = stream
        self.payload = payload
    }

    // On the loop thread the write is tried at once, and the common case
    // ends here, with no sink and no `SinkDisposer`. Elsewhere `run` makes
    // the sink, whose start goes through the loop's door: this asks where
    // the write can finish, it hops nowhere.
    override func runSource<Observer: ObserverType>(_ observer: Observer) -> Disposable? where Observer.Element == Never {
        guard stream.loop.isOnLoopThread else { return nil }
        return Self.start(stream: stream, payload: payload, observer, producer: self)
    }

    /// Starts a write on the loop thread, for a subscription (`producer`)
    /// or for `StreamConnection.write(_:notifying:)` (none: one is made only
    /// when the write must wait for `uv_write`). A write after the first of
    /// a read's handling waits for the others of that read, to go out with
    /// them in one write.
    static func start<Observer: ObserverType>(
        stream: StreamConnection, payload: StreamWritePayload, _ observer: Observer, producer: StreamWrite? = nil
    ) -> Disposable where Observer.Element == Never {
        if stream.holdsNextWrite() {
            return stream.hold(payload, for: observer)
        }
        let attempt = stream.writeAtOnce(payload)
        switch attempt {
        case .written:
            observer.onCompleted()
            return Disposables.create()
        case .failed(let error):
            observer.on(.error(error))
            return Disposables.create()
        case .mustQueue:
            return (producer ?? StreamWrite(stream: stream, payload: payload)).subscribeSink { cancel in
                let sink = StreamWriteSink(stream: stream, payload: payload, observer: observer, cancel: cancel)
                sink.proceed(after: attempt)
                return (sink: sink, subscription: Disposables.create())
            }
        }
    }

    // From another thread: the sink hops to the loop thread.
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Never {
        let sink = StreamWriteSink(stream: stream, payload: payload, observer: observer, cancel: cancel)
        sink.start("uv_write")
        return (sink: sink, subscription: Disposables.create())
    }
}

/// One write that could not finish at once: the attempt (from another
/// thread's subscribe), then the queued `uv_write`'s outcome, reported
/// unless disposed. The request cannot be taken back, so the sink owns no
/// handle: disposing only stops the notification.
private final class StreamWriteSink<Observer: ObserverType>: HandleSink<Observer>, @unchecked Sendable where Observer.Element == Never {
    private let stream: StreamConnection
    private let payload: StreamWritePayload

    init(stream: StreamConnection, payload: StreamWritePayload, observer: Observer, cancel: SinkDisposer) {
        self.stream = stream
        self.payload = payload
        super.init(loop: stream.loop, observer: observer, cancel: cancel)
    }

    override class var opensWhenDisposed: Bool {
        true
    }

    override func open() throws(UVError) {
        proceed(after: stream.writeAtOnce(payload))
    }

    /// Reports the write's outcome after `attempt`, or queues the rest of
    /// the bytes and waits for libuv. Loop thread.
    func proceed(after attempt: StreamWriteAttempt) {
        switch attempt {
        case .written:
            forwardCompleted()
        case .failed(let error):
            forwardError(error)
        case .mustQueue(let offset):
            stream.queueWrite(payload, from: offset, completion: finish)
        }
    }

    /// The write's outcome: `nil` completes, an error fails.
    private func finish(_ error: UVError?) {
        end(error)
    }
}
