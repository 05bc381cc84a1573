@_spi(Bridge) import RxCore

/// The default `receivedData` (`rx.data`) of a stream: its sink is the
/// stream's reader (`beginReading`, on the loop thread, at once there)
/// until the stream ends it or it is disposed (from any thread), which
/// ends the reading (`endReading`). The sink holds the stream, so a
/// stream read by a chain nobody else holds lives as long as the chain.
final class ByteStreamRead: Producer<ByteBuffer> {
    private let stream: any ByteStream

    init(stream: any ByteStream) {
        self.stream = stream
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = ByteStreamReadSink(stream: stream, observer: observer, cancel: cancel)
        let stream = self.stream
        if !stream.loop.enter({ stream.beginReading(sink) }) {
            sink.ended(UVError(code: .notConnected, operation: "data (the loop is closed)", address: stream.peerDescription))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// One `rx.data` subscription: the reader, forwarding each read.
private final class ByteStreamReadSink<Observer: ObserverType>: Sink<Observer>, ByteStreamReader, @unchecked Sendable
where Observer.Element == ByteBuffer {
    private let stream: any ByteStream

    init(stream: any ByteStream, observer: Observer, cancel: SinkDisposer) {
        self.stream = stream
        super.init(observer: observer, cancel: cancel)
    }

    func received(_ bytes: ByteBuffer) {
        forwardNext(bytes)
    }

    func ended(_ error: (any Error)?) {
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }

    override func dispose() {
        guard !isDisposed else { return }
        super.dispose()
        let stream = self.stream
        stream.loop.enter { [self] in stream.endReading(self) }
    }
}
