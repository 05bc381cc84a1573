import RxCore

/// The writes a stream's reader makes while it handles one read. The first
/// goes out at once, as any write does (a read answered with one write, an
/// echo, costs nothing more); those after it are held, in order, and written
/// together, as one vectored write, when the handling ends
/// (`StreamConnection.flushCoalesced`): a read answered with many writes
/// (pipelined requests) costs two write calls, not one per write. Each held
/// write keeps its subscriber, told once the batch is written; one whose
/// subscription was disposed meanwhile still goes out (a write cannot be
/// taken back), untold. Loop-thread state of a `StreamConnection`.
struct CoalescedWrites {
    /// One held write.
    struct Write {
        let payload: StreamWritePayload
        let observer: any ObserverType<Never>
        let ticket: UInt32
        var isCancelled = false
    }

    /// `true` while the reader handles a read.
    private(set) var isHandlingRead = false
    /// A write has gone out during this read's handling: later ones are held.
    private var hasWritten = false
    /// The writes held so far, in order.
    private(set) var writes: [Write] = []
    private var nextTicket: UInt32 = 0

    /// The reader starts or ends handling a read.
    mutating func handling(_ isHandling: Bool) {
        isHandlingRead = isHandling
        hasWritten = false
    }

    /// Whether a write made now is held: not the first of a read's
    /// handling, and not one made outside a handling. Counts the write.
    mutating func holdsNextWrite() -> Bool {
        guard isHandlingRead else { return false }
        if hasWritten { return true }
        hasWritten = true
        return false
    }

    /// Holds a write; returns its ticket (for `cancel`).
    mutating func hold(_ payload: StreamWritePayload, for observer: any ObserverType<Never>) -> UInt32 {
        nextTicket &+= 1
        writes.append(Write(payload: payload, observer: observer, ticket: nextTicket))
        return nextTicket
    }

    /// Forgets the subscriber of the write `ticket`, if it is still held.
    mutating func cancel(_ ticket: UInt32) {
        guard let index = writes.firstIndex(where: { $0.ticket == ticket }) else { return }
        writes[index].isCancelled = true
    }

    /// Takes the held writes out, leaving none, and the storage they used
    /// for `giveBack`.
    mutating func take() -> [Write] {
        var taken: [Write] = []
        swap(&taken, &writes)
        return taken
    }

    /// Returns emptied storage from `take`, so the next read's writes reuse
    /// it instead of allocating.
    mutating func giveBack(_ storage: inout [Write]) {
        guard writes.isEmpty else { return }
        storage.removeAll(keepingCapacity: true)
        swap(&storage, &writes)
    }
}

/// What disposing a held write does: its subscriber is not told.
struct CoalescedWriteDisposable: Disposable {
    let stream: StreamConnection
    let ticket: UInt32

    func dispose() {
        stream.cancelCoalesced(ticket)
    }
}
