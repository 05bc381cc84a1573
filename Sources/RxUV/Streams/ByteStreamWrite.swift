@_spi(Bridge) import RxCore

/// One write on a stream's face, as a `LoopStart`: the stream's one write
/// primitive (`startWrite(_:notifying:)`) with its payload. Every write the
/// face derives (`write(_:)`, `write(_ buffers:)`, `write(_:notifying:)`
/// from another thread) is one of these.
final class ByteStreamWrite: LoopStart {
    private let stream: any ByteStream
    private let payload: StreamWritePayload

    init(stream: any ByteStream, payload: StreamWritePayload) {
        self.stream = stream
        self.payload = payload
        super.init(loop: stream.loop)
    }

    /// A write keeps its place among the others even when its subscription
    /// was disposed before it reached the loop thread.
    override class var startsWhenDisposed: Bool {
        true
    }

    override func start<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        stream.startWrite(payload, notifying: observer)
    }
}
