import RxCore
import RxUV

/// One end of an in-memory pair.
enum InMemoryEnd: Int, Sendable {
    case client = 0
    case server = 1

    /// The other end.
    var peer: InMemoryEnd {
        self == .client ? .server : .client
    }
}

/// What a pair's loop thread keeps: both ends' state and whether a turn of
/// delivery is scheduled. Held by `InMemoryConnection` in one `LoopBound`.
struct InMemoryConnectionState {
    var ends = [InMemoryEndState(), InMemoryEndState()]
    /// A delivery turn (`InMemoryConnection.deliveryTurn`) is queued on
    /// the loop.
    var turnScheduled = false

    subscript(end: InMemoryEnd) -> InMemoryEndState {
        get { ends[end.rawValue] }
        // In place: a get and a set would copy the end's arrays on every change.
        _modify { yield &ends[end.rawValue] }
    }
}

/// One end's state, on the loop thread.
struct InMemoryEndState {
    /// The one reader (`receivedData`'s subscriber), if any.
    var reader: (any ByteStreamReader)?
    /// The reader's consumer has no room (`holdReading(true)`).
    var readingHeld = false
    /// Bytes the peer handed on, not yet read, in order (one piece per
    /// write, or per part of a write the receive buffer took).
    var inbound: [ByteBuffer] = []
    var inboundBytes = 0
    /// How the peer's bytes end, once they do: read after `inbound`.
    var inputEnd: InMemoryInputEnd?
    /// Writes not yet handed on (the receive buffer of the peer is full),
    /// in order; the first may be partly handed on already.
    var outbound: [InMemoryWrite] = []
    var outboundBytes = 0
    /// `shutdown()`s waiting for `outbound` to be handed on.
    var shutdowns: [InMemoryWriteObserver] = []
    /// `shutdown()` was asked: later writes fail with `EPIPE`.
    var outputShut = false
    /// `close(.afterWrites)` was asked: the end closes once `outbound` is
    /// handed on, and reads no more meanwhile.
    var closesAfterWrites = false
    var isOpen = true
    /// The peer closed: writes fail with `peerGone`'s error.
    var peerGone: UVError.Code?
    /// What `writability` last said.
    var writable = true
}

/// How the bytes an end reads end.
enum InMemoryInputEnd {
    /// The peer shut down or closed: end of input.
    case end
    /// The peer reset: the read fails.
    case reset
}

/// A write waiting to be handed on: what is left of its bytes, and whom to
/// tell when the last is.
struct InMemoryWrite {
    var bytes: ByteBuffer
    let observer: InMemoryWriteObserver
}

/// Whom a write or a shutdown tells how it ended: the writer's observer,
/// unless the writer disposed the notification.
final class InMemoryWriteObserver: Sendable {
    private let observer: AnyObserver<Never>
    /// Disposed by the writer: tell nothing.
    let cancellation = BooleanDisposable()

    init(_ observer: AnyObserver<Never>) {
        self.observer = observer
    }

    /// An observer that hands a write's outcome to a `Completable`'s observer.
    static func forwarding(to observer: @escaping Completable.CompletableObserver) -> AnyObserver<Never> {
        AnyObserver { event in
            switch event {
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            case .next: break
            }
        }
    }

    /// Tells the writer: completed (`nil`) or failed.
    func tell(_ error: UVError?) {
        guard !cancellation.isDisposed else { return }
        if let error {
            observer.on(.error(error))
        } else {
            observer.on(.completed)
        }
    }
}
