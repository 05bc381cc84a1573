@_spi(Bridge) import RxCore

/// The receiving end of a connection's reads: `TCPConnection` calls it on
/// the loop thread, one reader at a time.
protocol TCPReader: AnyObject {
    /// `true` once the read subscription was disposed.
    var isDisposed: Bool { get }
    /// One read's bytes.
    func received(_ bytes: ByteBuffer)
    /// The end of reading: `nil` at EOF or when the connection closed, else
    /// the error. Nothing follows.
    func ended(_ error: UVError?)
}

/// The sink of `connection.rx.data`: forwards each read as an element, with
/// no `Event` or closure on the way. Disposing it (from any thread) ends the
/// read and closes the connection once its queued writes are flushed.
private final class TCPReadSink<Observer: ObserverType>: Sink<Observer>, TCPReader, @unchecked Sendable where Observer.Element == ByteBuffer {
    private let connection: TCPConnection

    init(connection: TCPConnection, observer: Observer, cancel: Cancelable) {
        self.connection = connection
        super.init(observer: observer, cancel: cancel)
    }

    func received(_ bytes: ByteBuffer) {
        forwardNext(bytes)
    }

    func ended(_ error: UVError?) {
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }

    override func dispose() {
        if !isDisposed {
            let connection = self.connection
            connection.loop.onLoopThread { connection.endReading(self) }
        }
        super.dispose()
    }
}

/// The observable of `connection.rx.data`.
private final class TCPRead: Producer<ByteBuffer> {
    private let connection: TCPConnection

    init(connection: TCPConnection) {
        self.connection = connection
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = TCPReadSink(connection: connection, observer: observer, cancel: cancel)
        let connection = self.connection
        if !connection.loop.onLoopThread({ connection.beginReading(sink) }) {
            // The loop is closed, and the connection with it.
            sink.ended(UVError(code: UVError.Code.notConnected, operation: "TCPConnection.data", address: connection.remoteAddress?.description))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

extension Reactive where Base == TCPConnection {
    /// The bytes the peer sends, one `ByteBuffer` per read (`uv_read_start`).
    ///
    /// Completes at EOF (the peer half-closed or closed); errors with the
    /// `UVError` of a failed read (`ECONNRESET` for a reset). One reader at a
    /// time: a second concurrent subscriber gets `EBUSY`. Events arrive on
    /// the loop thread. When the subscription ends (EOF, error or dispose,
    /// from any thread) reading stops and the connection closes once the
    /// writes already queued are flushed.
    public var data: Observable<ByteBuffer> {
        TCPRead(connection: base)
    }
}
