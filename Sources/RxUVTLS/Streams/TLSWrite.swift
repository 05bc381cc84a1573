@_spi(Bridge) import RxCore
import RxUV
import Synchronization

/// The plaintext of one write: one buffer, or several written as one (no
/// array for the common single buffer).
enum TLSWritePayload {
    case one(ByteBuffer)
    case many([ByteBuffer])

    /// The number of bytes.
    var count: Int {
        switch self {
        case .one(let buffer): buffer.count
        case .many(let buffers): buffers.reduce(0) { $0 + $1.count }
        }
    }
}

/// The observable of `TLSStream.write(_:)`. On the loop thread the bytes
/// are encrypted during `subscribe` and, outside a read's handling, handed
/// to the transport at once, whose write's end is this write's end: no
/// sink, no closure. From another thread a `TLSWriteSink` hops to the loop
/// thread through its door and does the same there.
final class TLSWrite: Producer<Never> {
    private let stream: TLSStream
    private let payload: TLSWritePayload

    init(stream: TLSStream, payload: TLSWritePayload) {
        self.stream = stream
        self.payload = payload
    }

    override func runSource<Observer: ObserverType>(_ observer: Observer) -> Disposable? where Observer.Element == Never {
        guard stream.loop.isOnLoopThread else { return nil }
        return stream.write(payload, for: observer)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Never {
        let sink = TLSWriteSink(observer: observer, cancel: cancel)
        let (stream, payload) = (self.stream, self.payload)
        if !stream.loop.enter({ _ = stream.write(payload, for: sink) }) {
            sink.on(.error(UVError(code: .notConnected, operation: "TLS write", address: stream.peerDescription)))
        }
        return (sink: sink, subscription: Disposables.create())
    }
}

/// A write subscribed from another thread: forwards its end unless disposed.
private final class TLSWriteSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Never {
    func on(_ event: Event<Never>) {
        forwardOn(event)
    }
}

/// A write encrypted while the transport's read is handled, waiting to go
/// out with the others in one transport write: its subscriber, told unless
/// it disposed first. Loop thread.
// @unchecked Sendable: `observer` is immutable and called on the loop
// thread only; `ended` is atomic.
final class PendingTLSWrite: ObserverType, Disposable, @unchecked Sendable {
    private let observer: any ObserverType<Never>
    private let ended = Atomic<Bool>(false)

    init(_ observer: any ObserverType<Never>) {
        self.observer = observer
    }

    /// Tells the subscriber the write's end, once, unless it disposed.
    func on(_ event: Event<Never>) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        observer.on(event)
    }

    /// Stops the notification (from the subscriber, on any thread; the
    /// write itself cannot be taken back).
    func dispose() {
        ended.store(true, ordering: .releasing)
    }
}

/// The end of one transport write, told to every write whose records it
/// carried, in order.
struct PendingTLSWrites: ObserverType {
    let writes: [PendingTLSWrite]

    func on(_ event: Event<Never>) {
        for write in writes { write.on(event) }
    }
}

/// A transport write nobody waits for (handshake messages, alerts): its
/// failure ends the stream through its read side, which sees the same
/// error.
struct UnwatchedTransportWrite: ObserverType {
    func on(_ event: Event<Never>) {}
}
