@_spi(Bridge) import RxCore

/// The receiving end of a stream's reads: the one sink the stream hands each
/// read to. `StreamConnection` calls it on the loop thread, one reader at a
/// time.
protocol StreamReader: AnyObject {
    /// One read's bytes.
    func received(_ bytes: ByteBuffer)
    /// The end of reading: `nil` at EOF or when the stream closed, else the
    /// error. Nothing follows.
    func end(_ error: UVError?)
}

/// A subscription that reads a stream: the stream's reader, forwarding each
/// read as an element, with no `Event` or closure on the way. Disposing it ends the read, and the stream closes once its
/// queued writes are flushed. Subclasses say which stream (`open()`).
class StreamReadingSink<Observer: ObserverType>: HandleSink<Observer>, StreamReader, @unchecked Sendable where Observer.Element == ByteBuffer {
    /// The stream read from, once opened. Loop-thread state.
    final var stream: StreamConnection?

    /// Starts reading `stream`. Loop thread.
    final func read(_ stream: StreamConnection) {
        self.stream = stream
        stream.beginReading(self)
    }

    override func didRelease() {
        stream?.endReading(self)
    }

    final func received(_ bytes: ByteBuffer) {
        forwardNext(bytes)
    }
}

/// The observable of `stream.rx.data`.
final class StreamRead: Producer<ByteBuffer> {
    private let stream: StreamConnection

    init(stream: StreamConnection) {
        self.stream = stream
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = StreamReadSink(stream: stream, observer: observer, cancel: cancel)
        sink.start("uv_read_start")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Reads one given stream.
    private final class StreamReadSink<Observer: ObserverType>: StreamReadingSink<Observer>, @unchecked Sendable where Observer.Element == ByteBuffer {
        private let given: StreamConnection

        init(stream: StreamConnection, observer: Observer, cancel: SinkDisposer) {
            self.given = stream
            super.init(loop: stream.loop, observer: observer, cancel: cancel)
        }

        override func open() throws(UVError) {
            read(given)
        }

        override func didRelease() {
            if stream == nil {
                // Disposed before it read: the subscription's end still
                // closes the stream, as documented.
                given.readEndedUnread()
            }
            super.didRelease()
        }
    }
}
