import Logging
import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server's part on one loop: the connections that live there, each with
/// its handler's subscription, the quiesce signal they share, and the idle
/// sweep.
// @unchecked Sendable: `count` is atomic; the rest is touched on the loop's
// thread only (connections arrive through `Loop.enter`), which its methods
// assert (`assertConfined`).
final class ServerShard: UVTimerTarget, @unchecked Sendable {
    let loop: Loop
    let index: Int
    /// Connections open here (also read by other loops' acceptors, for
    /// least-connections).
    let count = Atomic<Int>(0)
    /// Weak: the server keeps itself alive while it has a connection.
    private weak var server: Server?
    /// What it records about its connections, when the server records
    /// metrics.
    let metrics: ServerMetrics?

    private struct Entry {
        /// The libuv stream: watched for close and activity, reset at the end.
        let transport: StreamConnection
        /// What the handler got (the transport, or the factory's wrapper):
        /// closed through its face when the handler ends.
        let stream: any ByteStream
        let handling: SingleAssignmentDisposable
        /// The handler has ended; the connection closes once its writes
        /// are flushed.
        var isClosing = false
    }

    // Loop-thread state.
    private var entries: [UInt64: Entry] = [:]
    /// The key of the next connection: a count, never reused (an object's
    /// address is, once it is freed, and a late `.finish` must not end a
    /// newer connection).
    private var nextKey: UInt64 = 0
    private var sweep: Owned<LoopTimer>?
    private var isQuiescing = false
    /// Every handler's `quiesce`: one signal for the shard, not one per
    /// connection (a subject made and freed per connection cost more than
    /// a handler that never looks at it should pay). A handler that
    /// subscribes after the drain began hears it at once: the subject
    /// keeps its value once completed.
    private let quiesceSignal = AsyncSubject<Void>()
    /// The server is resetting: a connection still on its way is reset as
    /// it arrives.
    private var isResetting = false

    /// What the server listens on, for reports.
    private let address: ServerAddress
    /// Where reports go: the server's logger, or `nil` for the loop's.
    private let logger: Logger?

    init(loop: Loop, index: Int, server: Server, metrics: ServerMetrics?) {
        self.loop = loop
        self.index = index
        self.server = server
        self.metrics = metrics
        self.address = server.address
        self.logger = server.options.logger
    }

    /// Opens the accepted `descriptor` here through the server's
    /// `ConnectionFactory` and runs the handler on it. The server has
    /// counted it already; it is uncounted when the connection has closed.
    /// Loop thread.
    func adopt(_ descriptor: consuming OwnedDescriptor) {
        assertConfined()
        guard let server else {
            ListeningSocket.refuse(descriptor)
            return
        }
        let made: ConnectionFactory.Made
        do throws(UVError) {
            made = try server.factory(descriptor, on: loop, listeningOn: address)
        } catch {
            report(error, ReportContext(loop: loop, server: address.description, logger: logger))
            server.connectionEnded(on: self)
            return
        }
        nextKey += 1
        let key = nextKey
        let entry = Entry(transport: made.transport, stream: made.stream, handling: SingleAssignmentDisposable())
        entries[key] = entry
        metrics?.active.record(entries.count)
        made.transport.countTraffic(in: metrics)
        startSweepIfNeeded()
        // However the connection closes (the handler's end, the peer, a reset).
        made.transport.whenClosed { [self] in closed(key) }
        if !made.transport.handle.isOpen {
            // The factory closed it already.
            closed(key)
            return
        }
        // The handler's end may come on another thread (a chain that ends
        // with `observe(on:)` elsewhere): the table is this loop's. The
        // peer is written out only for a report (its address is kept).
        entry.handling.setDisposable(
            made.handle(quiesceSignal.asObservable(), server.label).subscribe(
                onCompleted: { [self] in _ = loop.enter(self, .finish(key)) },
                onError: { [self, transport = made.transport] error in
                    // Reported where it arrives: it cannot reach a subscriber.
                    report(error, ReportContext(loop: loop, server: address.description, peer: transport.peerDescription, logger: logger))
                    _ = loop.enter(self, .finish(key))
                }))
        if isResetting {
            finish(key, reset: true)
        }
    }

    /// A handler ended (or the server ends it): closes the connection once
    /// its writes are flushed, or at once with a reset. Loop thread.
    private func finish(_ key: UInt64, reset: Bool = false) {
        assertConfined()
        guard let entry = entries[key] else { return }
        entries[key]?.isClosing = true
        entry.handling.dispose()
        if reset {
            if entry.transport.handle.isOpen {
                metrics?.reset.increment()
            }
            entry.transport.closeNow(reset: true)
        } else {
            entry.stream.close(.afterWrites)
        }
    }

    /// The connection has closed: uncounted. Loop thread.
    private func closed(_ key: UInt64) {
        assertConfined()
        guard let entry = entries.removeValue(forKey: key) else { return }
        metrics?.active.record(entries.count)
        metrics?.reportTraffic()
        entry.handling.dispose()
        if entries.isEmpty {
            sweep.take()?.release()
        }
        server?.connectionEnded(on: self)
    }

    /// Tells every handler here to finish, and every later one at once.
    /// Loop thread.
    func quiesce() {
        assertConfined()
        guard !isQuiescing else { return }
        isQuiescing = true
        quiesceSignal.onNext(())
        quiesceSignal.onCompleted()
    }

    /// Resets every connection still here (a drain's deadline). Loop thread.
    func resetAll() {
        assertConfined()
        isResetting = true
        for key in Array(entries.keys) {
            finish(key, reset: true)
        }
    }

    // MARK: Idle timeout

    private func startSweepIfNeeded() {
        guard sweep == nil, let idle = server?.options.idleTimeout else { return }
        do throws(UVError) {
            let timer = LoopTimer(loop: loop)
            let period = max(LoopTimer.milliseconds(RxTimeInterval(idle)) / 4, 1)
            try timer.start(milliseconds: period, periodMilliseconds: period)
            timer.target = self
            sweep = Owned(timer)
        } catch {
            report(error, ReportContext(loop: loop, server: address.description, logger: logger))
        }
    }

    /// Closes the connections idle for the timeout or longer.
    func timerFired() {
        assertConfined()
        guard let idle = server?.options.idleTimeout else { return }
        let limit = LoopTimer.milliseconds(RxTimeInterval(idle))
        let now = loop.clockMilliseconds
        // An idle one closes; one still closing after as long (its peer
        // does not read what is left to write) is reset.
        for (key, entry) in entries where now &- entry.transport.lastActivity >= limit {
            if !entry.isClosing {
                metrics?.idleClosed.increment()
            }
            finish(key, reset: entry.isClosing)
        }
    }
}

extension ServerShard: LoopConfined {
    /// `.adopt`, `.finish`, `.quiesce` and `.reset`, asked from elsewhere.
    func runOnLoopThread(_ step: ServerShardStep) {
        switch step {
        case .adopt(let descriptor): adopt(OwnedDescriptor(descriptor))
        case .finish(let key): finish(key)
        case .quiesce: quiesce()
        case .reset: resetAll()
        }
    }
}
