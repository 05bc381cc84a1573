@_spi(Bridge) import RxCore
import RxUV

/// The one reader of a `TLSStream`'s plaintext, as the stream sees it:
/// what its `rx.data` subscription registers on the loop thread.
protocol TLSStreamReading: AnyObject, Sendable {
    /// Plaintext for the subscriber. Loop thread.
    func received(_ bytes: ByteBuffer)
    /// The end: `.completed` for `nil`, else the error. Loop thread.
    func end(_ error: (any Error)?)
}

/// The observable of `TLSStream.receivedData` (`rx.data`): its sink is the
/// stream's reader from the loop thread on, until the stream ends it or it
/// is disposed (from any thread), which ends the reading.
final class TLSRead: Producer<ByteBuffer> {
    private let stream: TLSStream

    init(stream: TLSStream) {
        self.stream = stream
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = TLSReadSink(stream: stream, observer: observer, cancel: cancel)
        let stream = self.stream
        if !stream.loop.enter({ stream.beginReading(sink) }) {
            sink.end(UVError(code: .notConnected, operation: "TLSStream.data", address: stream.peerDescription))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// One `rx.data` subscription of a TLS stream. It holds the stream, so a
/// stream read by a chain that nobody else holds lives as long as the chain.
private final class TLSReadSink<Observer: ObserverType>: Sink<Observer>, TLSStreamReading, @unchecked Sendable
where Observer.Element == ByteBuffer {
    private let stream: TLSStream

    init(stream: TLSStream, observer: Observer, cancel: SinkDisposer) {
        self.stream = stream
        super.init(observer: observer, cancel: cancel)
    }

    func received(_ bytes: ByteBuffer) {
        forwardNext(bytes)
    }

    func end(_ error: (any Error)?) {
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }

    override func dispose() {
        guard !isDisposed else { return }
        super.dispose()
        // The stream stops delivering to this reader (and a stream on its
        // own closes): on the loop thread, at once there.
        let stream = self.stream
        stream.loop.enter { [self] in stream.endReading(self) }
    }
}
