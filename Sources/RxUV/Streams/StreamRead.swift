@_spi(Bridge) import RxCore

/// A subscription that reads a stream: the stream's reader, forwarding each
/// read as an element, with no `Event` or closure on the way. Disposing it ends the read, and the stream closes once its
/// queued writes are flushed. Subclasses say which stream (`open()`).
class StreamReadingSink<Observer: ObserverType>: HandleSink<Observer>, ByteStreamReader, @unchecked Sendable where Observer.Element == ByteBuffer {
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

    final func ended(_ error: (any Error)?) {
        if let error {
            forwardError(error)
        } else {
            forwardCompleted()
        }
    }
}

/// The observable of `stream.rx.data`.
final class StreamRead: Producer<ByteBuffer> {
    private let stream: StreamConnection

    init(stream: StreamConnection) {
        self.stream = stream
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
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
