import RxCore
import Synchronization

/// The writes a stream's reader makes while it handles one read (from its
/// `received` to the end of its `readComplete`): the face's one write
/// coalescing, which a stream layered on this one (TLS) inherits, since
/// its reader's writes reach this stream during this stream's handling. The first
/// goes out at once, as any write does (a read answered with one write, an
/// echo, costs nothing more); those after it are held, in order, and written
/// together, as one vectored write, when the handling ends
/// (`StreamConnection.flushCoalesced`, through `StreamWriteQueue`): a read answered with many writes
/// (pipelined requests) costs two write calls, not one per write. Held
/// bytes past the stream's high watermark go out at once as a batch of
/// their own (`StreamConnection.hold`), so backpressure sees them. Each held
/// write keeps its subscriber, told once the batch is written; one whose
/// subscription was disposed meanwhile still goes out (a write cannot be
/// taken back), untold. Loop-thread state of a `StreamConnection`.
struct CoalescedWrites {
    /// One held write.
    struct Write {
        let payload: StreamWritePayload
        let observer: any ObserverType<Never>
        /// Set when the write's subscription is disposed, from any thread.
        let cancellation: WriteNotification
    }

    /// `true` while the reader handles a read and writes after the first
    /// are held.
    private(set) var isHandlingRead = false
    /// A write has gone out during this read's handling: later ones are held.
    private var hasWritten = false
    /// The writes held so far, in order.
    private(set) var writes: [Write] = []
    /// Their bytes: held bytes count against the stream's high watermark
    /// (`StreamConnection.hold`).
    private(set) var heldBytes = 0

    /// The reader starts or ends handling a read.
    mutating func handling(_ isHandling: Bool) {
        isHandlingRead = isHandling
        hasWritten = false
    }

    /// Holds nothing more until the next read's handling: what is held is
    /// being written now (a graceful close or a shutdown came first), and a
    /// write chained on one of them must go out before the close decides.
    mutating func stopHolding() {
        isHandlingRead = false
    }

    /// Whether a write made now is held: not the first of a read's
    /// handling, and not one made outside a handling. Counts the write.
    mutating func holdsNextWrite() -> Bool {
        guard isHandlingRead else { return false }
        if hasWritten { return true }
        hasWritten = true
        return false
    }

    /// Holds a write; returns what its disposable sets.
    mutating func hold(_ payload: StreamWritePayload, for observer: any ObserverType<Never>) -> WriteNotification {
        let cancellation = WriteNotification()
        writes.append(Write(payload: payload, observer: observer, cancellation: cancellation))
        heldBytes += payload.count
        return cancellation
    }

    /// Takes the held writes out, leaving none.
    mutating func take() -> [Write] {
        var taken: [Write] = []
        swap(&taken, &writes)
        heldBytes = 0
        return taken
    }
}

/// Whether a write's notification was stopped: set by its disposable from
/// any thread, read when the write's outcome is told (a held write's, which
/// may be after its batch went to `uv_write`, or a queued write's).
final class WriteNotification: Disposable {
    private let cancelled = Atomic<Bool>(false)

    /// `true` once disposed: the subscriber is not told.
    var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Stops the notification; the bytes still go out.
    func dispose() {
        cancelled.store(true, ordering: .releasing)
    }
}
