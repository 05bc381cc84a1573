import RxCore
import RxUV

/// A stream that is not a libuv handle: it forwards every part of the
/// `ByteStream` face to another stream. Test streams (a transform, a
/// counter) subclass it and override what they change, written against
/// the public face only, as a TLS stream is.
class ForwardingStream: ByteStream, @unchecked Sendable {
    // @unchecked Sendable: the one stored property is immutable and
    // Sendable; subclasses add only Sendable state.
    let inner: any ByteStream

    init(_ inner: any ByteStream) {
        self.inner = inner
    }

    var loop: Loop { inner.loop }
    var receivedData: Observable<ByteBuffer> { inner.receivedData }
    var writability: Observable<Bool> { inner.writability }
    func beginReading(_ reader: any ByteStreamReader) { inner.beginReading(reader) }
    func endReading(_ reader: any ByteStreamReader) { inner.endReading(reader) }
    func holdReading(_ held: Bool) { inner.holdReading(held) }
    func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        inner.startWrite(payload, notifying: observer)
    }
    func shutdown() -> Completable { inner.shutdown() }
    func close(_ mode: StreamCloseMode) { inner.close(mode) }
    var highWatermark: Int {
        get { inner.highWatermark }
        set { inner.highWatermark = newValue }
    }
    var lowWatermark: Int {
        get { inner.lowWatermark }
        set { inner.lowWatermark = newValue }
    }
    var writeQueueSize: Int { inner.writeQueueSize }
    var isWritable: Bool { inner.isWritable }
    var isClosed: Bool { inner.isClosed }
    var peerDescription: String? { inner.peerDescription }
}
