import RxCore
import RxUV
import Synchronization

/// What other threads may read of one end: its watermarks, queue size,
/// writability and whether it is closed, and its `rx.writable` subject.
final class InMemoryEndFlags: Sendable {
    let high = Atomic<Int>(64 * 1024)
    let low = Atomic<Int>(32 * 1024)
    let queued = Atomic<Int>(0)
    let closed = Atomic<Bool>(false)
    let writable = Atomic<Bool>(true)
    let writability = WritabilitySignal()
}

/// The wire between the two ends of an in-memory pair: both ends' state in
/// one `LoopBound`, and every rule of the `ByteStream` contract, on the
/// loop thread. The ends (`InMemoryStream`) hold it and enter the loop to
/// call it; it holds neither end, so an end nobody holds goes away (and
/// closes).
///
/// How bytes move: a write is handed on at once into the peer's receive
/// buffer as far as it has room (`InMemoryStreamOptions.receiveBufferSize`)
/// and completes when its last byte is; what finds no room waits in the
/// writer's queue. The peer's reader reads on a later loop turn: each
/// delivery turn (`deliveryTurn`, queued with `Loop.execute`) reads what
/// had arrived when it began, the client end first, so bytes written
/// while a turn runs arrive in the next. Every access to the state is
/// short; the calls out (to readers and writers) come after it.
final class InMemoryConnection: Sendable {
    let loop: Loop
    let options: InMemoryStreamOptions
    let state: LoopBound<InMemoryConnectionState>
    let flags = [InMemoryEndFlags(), InMemoryEndFlags()]

    init(loop: Loop, options: InMemoryStreamOptions) {
        self.loop = loop
        self.options = options
        self.state = LoopBound(InMemoryConnectionState(), loop: loop)
    }

    /// The flags of `end`.
    func flags(_ end: InMemoryEnd) -> InMemoryEndFlags {
        flags[end.rawValue]
    }

    /// What `end` says its peer is.
    func peerName(_ end: InMemoryEnd) -> String {
        end == .client ? options.peerNames.client : options.peerNames.server
    }

    /// The error `code` of `operation` on `end`, naming its peer.
    func error(_ code: UVError.Code, _ operation: String, _ end: InMemoryEnd) -> UVError {
        UVError(code: code, operation: "InMemoryStream.\(operation)", address: peerName(end))
    }

    // MARK: Reading

    /// `reader` becomes `end`'s reader: `EBUSY` while another reads,
    /// `ENOTCONN` once the end is closed or closing. Loop thread.
    func beginReading(_ end: InMemoryEnd, _ reader: any ByteStreamReader) {
        if state.value[end].reader != nil {
            reader.ended(error(.busy, "data (another subscriber is reading)", end))
            return
        }
        guard state.value[end].isOpen, !state.value[end].closesAfterWrites else {
            reader.ended(error(.notConnected, "data", end))
            return
        }
        state.value[end].reader = reader
        state.value[end].readingHeld = false
        scheduleTurn()
    }

    /// `reader`, if it is `end`'s reader, stopped reading (disposed): the
    /// bytes not read wait for the next reader. Loop thread.
    func endReading(_ end: InMemoryEnd, _ reader: any ByteStreamReader) {
        guard state.value[end].reader === reader else { return }
        state.value[end].reader = nil
        state.value[end].readingHeld = false
    }

    /// Holds `end`'s reading back, or lets it go. Loop thread.
    func holdReading(_ end: InMemoryEnd, _ held: Bool) {
        guard state.value[end].reader != nil, state.value[end].isOpen else { return }
        state.value[end].readingHeld = held
        if !held { scheduleTurn() }
    }

    // MARK: Writing

    /// Writes `bytes` from `end`, telling `told` how it ended. Loop thread.
    func write(_ end: InMemoryEnd, _ bytes: ByteBuffer, _ told: InMemoryWriteObserver) {
        if let refusal = writeRefusal(end) {
            told.tell(refusal)
            return
        }
        guard bytes.count > 0 || !state.value[end].outbound.isEmpty else {
            told.tell(nil)
            return
        }
        state.value[end].outbound.append(InMemoryWrite(bytes: bytes, observer: told))
        state.value[end].outboundBytes += bytes.count
        handOn(end)
    }

    /// Why a write from `end` fails at once, if it does: `ENOTCONN` on a
    /// closed end, `EPIPE` after its shutdown, the peer's close or reset.
    private func writeRefusal(_ end: InMemoryEnd) -> UVError? {
        guard state.value[end].isOpen else { return error(.notConnected, "write", end) }
        if state.value[end].outputShut { return error(.brokenPipe, "write", end) }
        if let gone = state.value[end].peerGone { return error(gone, "write", end) }
        return nil
    }

    /// Half-closes `end` once its queued writes are handed on: its peer
    /// reads to the end, then sees end of input. Loop thread.
    func shutdown(_ end: InMemoryEnd, _ told: InMemoryWriteObserver) {
        guard state.value[end].isOpen else {
            told.tell(error(.notConnected, "shutdown", end))
            return
        }
        state.value[end].outputShut = true
        state.value[end].shutdowns.append(told)
        handOn(end)
    }

    /// Hands on what the peer's receive buffer takes of `end`'s queued
    /// writes, tells the writes that went whole, then what waited for the
    /// queue to drain (a shutdown, a close after the writes). Loop thread.
    private func handOn(_ end: InMemoryEnd) {
        let peer = end.peer
        var done: [InMemoryWriteObserver] = []
        var handed = false
        while let first = state.value[end].outbound.first {
            let room = options.receiveBufferSize.map { $0 - state.value[peer].inboundBytes } ?? Int.max
            guard room > 0 else { break }
            let count = first.bytes.count
            let taken = min(room, count)
            state.value[peer].inbound.append(taken == count ? first.bytes : first.bytes.slice(at: 0, count: taken))
            state.value[peer].inboundBytes += taken
            state.value[end].outboundBytes -= taken
            handed = true
            guard taken == count else {
                state.value[end].outbound[0].bytes = first.bytes.slice(at: taken, count: count - taken)
                break
            }
            state.value[end].outbound.removeFirst()
            done.append(first.observer)
        }
        var closes = false
        if state.value[end].outbound.isEmpty {
            if !state.value[end].shutdowns.isEmpty {
                if state.value[peer].inputEnd == nil { state.value[peer].inputEnd = .end }
                done += state.value[end].shutdowns
                state.value[end].shutdowns = []
                handed = true
            }
            closes = state.value[end].closesAfterWrites
        }
        let writability = updateWritability(end)
        for told in done { told.tell(nil) }
        writability?()
        if closes { closeNow(end, reset: false) }
        if handed { scheduleTurn() }
    }

    /// Records `end`'s queue size and turns it unwritable above the high
    /// watermark, writable again at or below the low one; returns what
    /// tells `rx.writable`, to be called once the state is left. Loop thread.
    private func updateWritability(_ end: InMemoryEnd) -> (() -> Void)? {
        let queued = state.value[end].outboundBytes
        let flags = flags(end)
        flags.queued.store(queued, ordering: .relaxed)
        let writable = state.value[end].writable
        if writable, queued > flags.high.load(ordering: .relaxed) {
            state.value[end].writable = false
            flags.writable.store(false, ordering: .releasing)
            return { flags.writability.send(false) }
        }
        if !writable, queued <= flags.low.load(ordering: .relaxed), state.value[end].isOpen {
            state.value[end].writable = true
            flags.writable.store(true, ordering: .releasing)
            return { flags.writability.send(true) }
        }
        return nil
    }

    // MARK: Closing

    /// Closes `end` as `mode` says. Loop thread.
    func close(_ end: InMemoryEnd, _ mode: StreamCloseMode) {
        switch mode {
        case .afterWrites:
            guard state.value[end].isOpen, !state.value[end].closesAfterWrites else { return }
            flags(end).closed.store(true, ordering: .releasing)
            state.value[end].closesAfterWrites = true
            handOn(end)
        case .now:
            closeNow(end, reset: false)
        case .reset:
            closeNow(end, reset: true)
        }
    }

    /// Closes `end` now: its queued writes and shutdowns fail with
    /// `ECANCELED`, what it had not read is dropped, its reader completes
    /// and `rx.writable` completes. Its peer reads what was handed on, then
    /// end of input (`reset`: `ECONNRESET` at once, unread bytes dropped);
    /// the peer's queued and later writes fail with `EPIPE` (`ECONNRESET`).
    /// Loop thread.
    func closeNow(_ end: InMemoryEnd, reset: Bool) {
        guard state.value[end].isOpen else { return }
        let peer = end.peer
        flags(end).closed.store(true, ordering: .releasing)
        flags(end).queued.store(0, ordering: .relaxed)
        state.value[end].isOpen = false
        let cancelled = state.value[end].outbound.map(\.observer) + state.value[end].shutdowns
        state.value[end].outbound = []
        state.value[end].outboundBytes = 0
        state.value[end].shutdowns = []
        state.value[end].inbound = []
        state.value[end].inboundBytes = 0
        let reader = state.value[end].reader
        state.value[end].reader = nil
        state.value[end].readingHeld = false

        var peerFailed: [InMemoryWriteObserver] = []
        var peerWritability: (() -> Void)?
        let gone: UVError.Code = reset ? .connectionReset : .brokenPipe
        if state.value[peer].isOpen {
            state.value[peer].peerGone = gone
            peerFailed = state.value[peer].outbound.map(\.observer) + state.value[peer].shutdowns
            state.value[peer].outbound = []
            state.value[peer].outboundBytes = 0
            state.value[peer].shutdowns = []
            if reset {
                state.value[peer].inbound = []
                state.value[peer].inboundBytes = 0
                state.value[peer].inputEnd = .reset
            } else if state.value[peer].inputEnd == nil {
                state.value[peer].inputEnd = .end
            }
            peerWritability = updateWritability(peer)
        }
        // The writes first, then the reader, then `rx.writable`: a libuv
        // stream's order.
        let cancel = error(.cancelled, "write", end)
        for told in cancelled { told.tell(cancel) }
        reader?.ended(nil)
        flags(end).writability.complete()
        let failure = error(gone, "write", peer)
        for told in peerFailed { told.tell(failure) }
        peerWritability?()
        scheduleTurn()
    }

    // MARK: Delivery

    /// Queues a delivery turn on the loop, unless one is queued. Loop thread.
    private func scheduleTurn() {
        guard !state.value.turnScheduled else { return }
        state.value.turnScheduled = true
        loop.execute { [self] in deliveryTurn() }
    }

    /// One delivery turn: each end's reader reads what had arrived when
    /// the turn began (the client's first), and the end of input after
    /// it; then the room the reads made takes the writes that waited.
    /// Another turn is queued while a reader has more to read.
    private func deliveryTurn() {
        state.value.turnScheduled = false
        let budgets = [reads(waitingAt: .client), reads(waitingAt: .server)]
        deliver(to: .client, reads: budgets[0])
        deliver(to: .server, reads: budgets[1])
        handOn(.client)
        handOn(.server)
        if hasMoreToRead(.client) || hasMoreToRead(.server) {
            scheduleTurn()
        }
    }

    /// The reads that deliver what waits at `end` now.
    private func reads(waitingAt end: InMemoryEnd) -> Int {
        guard let most = options.maxReadSize else { return state.value[end].inbound.count }
        return state.value[end].inbound.reduce(0) { $0 + ($1.count + most - 1) / most }
    }

    /// Whether `end`'s reader would read something, or the end of input,
    /// in another turn.
    private func hasMoreToRead(_ end: InMemoryEnd) -> Bool {
        guard state.value[end].reader != nil, state.value[end].isOpen, !state.value[end].closesAfterWrites, !state.value[end].readingHeld else {
            return false
        }
        return !state.value[end].inbound.isEmpty || state.value[end].inputEnd != nil
    }

    /// Up to `reads` reads to `end`'s reader, each checked against what the
    /// one before changed (a hold, a close, another reader); then, with
    /// nothing left unread, the end of input.
    private func deliver(to end: InMemoryEnd, reads: Int) {
        var left = reads
        while let reader = state.value[end].reader, state.value[end].isOpen, !state.value[end].closesAfterWrites, !state.value[end].readingHeld {
            guard let first = state.value[end].inbound.first else {
                guard let inputEnd = state.value[end].inputEnd else { return }
                state.value[end].reader = nil
                switch inputEnd {
                case .end: reader.ended(nil)
                case .reset: reader.ended(error(.connectionReset, "data", end))
                }
                return
            }
            guard left > 0 else { return }
            left -= 1
            let piece: ByteBuffer
            if let most = options.maxReadSize, first.count > most {
                piece = first.slice(at: 0, count: most)
                state.value[end].inbound[0] = first.slice(at: most, count: first.count - most)
            } else {
                piece = first
                state.value[end].inbound.removeFirst()
            }
            state.value[end].inboundBytes -= piece.count
            reader.received(piece)
            reader.readComplete()
        }
    }
}
