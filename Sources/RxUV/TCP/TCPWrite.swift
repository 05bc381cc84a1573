@_spi(Bridge) import RxCore

/// What `TCPConnection.writeAtOnce` did with a write.
enum TCPWriteAttempt {
    /// The kernel took every byte.
    case written
    /// The bytes from this offset on must be queued with `uv_write`.
    case mustQueue(from: Int)
    /// The write failed; nothing more will happen.
    case failed(UVError)
}

/// The observable of `TCPConnection.write(_:)`. On the loop thread with
/// nothing queued it writes during `subscribe` and finishes there, with no
/// sink and no request; otherwise a `TCPWriteSink` waits for `uv_write`.
final class TCPWrite: Producer<Never> {
    private let connection: TCPConnection
    private let bytes: ByteBuffer

    init(connection: TCPConnection, bytes: ByteBuffer) {
        self.connection = connection
        self.bytes = bytes
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Never {
        let connection = self.connection
        let bytes = self.bytes
        if connection.loop.isOnLoopThread {
            // The common case ends here, without a sink.
            let attempt = connection.writeAtOnce(bytes)
            switch attempt {
            case .written:
                observer.onCompleted()
                return (sink: Disposables.create(), subscription: Disposables.create())
            case .failed(let error):
                observer.on(.error(error))
                return (sink: Disposables.create(), subscription: Disposables.create())
            case .mustQueue:
                let sink = TCPWriteSink(connection: connection, bytes: bytes, observer: observer, cancel: cancel)
                sink.proceed(after: attempt)
                return (sink: sink, subscription: Disposables.create())
            }
        }
        // Off the loop thread: the sink makes the attempt there.
        let sink = TCPWriteSink(connection: connection, bytes: bytes, observer: observer, cancel: cancel)
        if !connection.loop.onLoopThread(sink) {
            // The loop is closed, and the connection with it.
            sink.fail(connection.writeError(.notConnected))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Waits for a queued write's outcome and reports it, unless disposed.
private final class TCPWriteSink<Observer: ObserverType>: Sink<Observer>, LoopThreadWork, @unchecked Sendable where Observer.Element == Never {
    private let connection: TCPConnection
    private let bytes: ByteBuffer

    init(connection: TCPConnection, bytes: ByteBuffer, observer: Observer, cancel: Cancelable) {
        self.connection = connection
        self.bytes = bytes
        super.init(observer: observer, cancel: cancel)
    }

    /// Writes from another thread's subscribe: the attempt, on the loop thread.
    func runOnLoopThread(_: Void) {
        proceed(after: connection.writeAtOnce(bytes))
    }

    /// Reports the write's outcome after `attempt`, or queues the rest of
    /// the bytes and waits for libuv. Loop thread.
    func proceed(after attempt: TCPWriteAttempt) {
        switch attempt {
        case .written:
            finish(nil)
        case .failed(let error):
            fail(error)
        case .mustQueue(let offset):
            connection.queueWrite(bytes, from: offset, completion: finish)
        }
    }

    /// The write's outcome: `nil` completes, an error fails.
    func finish(_ error: UVError?) {
        if let error {
            fail(error)
        } else {
            forwardCompleted()
        }
    }

    func fail(_ error: UVError) {
        forwardError(error)
    }
}
