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
            switch connection.writeAtOnce(bytes) {
            case .written:
                observer.onCompleted()
                return (sink: Disposables.create(), subscription: Disposables.create())
            case .failed(let error):
                observer.on(.error(error))
                return (sink: Disposables.create(), subscription: Disposables.create())
            case .mustQueue(let offset):
                let sink = TCPWriteSink(connection: connection, observer: observer, cancel: cancel)
                connection.queueWrite(bytes, from: offset, completion: sink.finish)
                return (sink: sink, subscription: Disposables.create())
            }
        }
        let sink = TCPWriteSink(connection: connection, observer: observer, cancel: cancel)
        let queued = connection.loop.execute {
            switch connection.writeAtOnce(bytes) {
            case .written:
                sink.finish(0)
            case .failed(let error):
                sink.fail(error)
            case .mustQueue(let offset):
                connection.queueWrite(bytes, from: offset, completion: sink.finish)
            }
        }
        if !queued {
            // The loop is closed, and the connection with it.
            sink.fail(connection.writeError(UVError.Code.notConnected))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// Waits for a queued write's outcome and reports it, unless disposed.
private final class TCPWriteSink<Observer: ObserverType>: Sink<Observer> where Observer.Element == Never {
    private let connection: TCPConnection

    init(connection: TCPConnection, observer: Observer, cancel: Cancelable) {
        self.connection = connection
        super.init(observer: observer, cancel: cancel)
    }

    /// libuv's status for the write: 0 completes, a negative status errors.
    func finish(_ status: Int32) {
        if status < 0 {
            fail(connection.writeError(status))
        } else {
            forwardCompleted()
            dispose()
        }
    }

    func fail(_ error: UVError) {
        forwardError(error)
    }
}
