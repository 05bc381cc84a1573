import CoreMetrics
import Logging
import RxCore
import Synchronization

/// A TCP or Unix-domain server over one loop or a `LoopGroup`: it listens,
/// places each accepted connection on a loop, runs a handler for it there,
/// limits and counts connections, closes idle ones, and drains.
///
/// Made by `loop.rx.serve` or `group.rx.serve`, on a host and port or on a
/// Unix-domain socket path. Each connection is given to
/// the handler on its own loop's thread, and the `Completable` the handler
/// returns is the connection's life: when it ends (completed, failed, or
/// disposed by the server) the connection closes once its writes are
/// flushed. A handler's error cannot reach a subscriber, so it is reported
/// to the server's logger (`ServerOptions.logger`, else the loop's
/// `Loop.logger`: standard error by default), with the server's address
/// and the peer as metadata.
///
/// Connections are accepted as `loop.rx.listen` accepts them (the same
/// accept path: `TCP_NODELAY` set, a transient failure such as `EMFILE`
/// reported and accepting paused for 100 ms), then opened on their loop
/// and handed, through the per-connection factory when one is given, to
/// the handler. Connections are
/// never delivered from several loops into one chain: that would break Rx's
/// serial delivery.
///
/// A server keeps itself alive while it accepts or has a connection open,
/// as a listening subscription keeps its loop running: it ends after
/// `drain` (or `stopAccepting` and the last connection closing), not when
/// released.
///
/// Metrics: unless `ServerOptions.recordsMetrics` is off, the server
/// records through swift-metrics, with the dimensions `server` and `loop`:
/// `rxuv_server_connections_active` (gauge), `…_accepted`, `…_refused`,
/// `…_reset`, `…_idle_closed` (counters of connections),
/// `rxuv_server_bytes_read` and `rxuv_server_bytes_written` (counters), and
/// `rxuv_server_drain_duration` (a timer, dimension `server` only).
///
/// Every member is safe from any thread.
// @unchecked Sendable: `shards` and `acceptors` are written once before
// the server is shared (in `init`, and in `start` before any acceptor
// starts) and only read after; the counters are atomic; `countChanges` and
// `drained` are subjects, safe from any thread; the rest is immutable or
// under `state`'s lock. Each shard's connection table is its loop
// thread's (`ServerShard`).
public final class Server: ReactiveCompatible, AcceptorTarget, @unchecked Sendable {
    /// The address the server listens on (with the port the kernel chose for
    /// port 0), or its socket path.
    public let address: ServerAddress
    /// The options it was made with.
    public let options: ServerOptions
    /// The server's name in reports and metrics: `options.metricsLabel`,
    /// else the address.
    let label: String
    /// The loops connections are placed on.
    public let loops: [Loop]

    /// Opens each accepted descriptor, wraps it with the per-connection
    /// factory and runs the caller's handler on it.
    let factory: ConnectionFactory
    private(set) var shards: [ServerShard] = []
    private var acceptors: [Acceptor] = []
    private let total = Atomic<Int>(0)
    private let acceptedTotal = Atomic<Int>(0)
    private let refusedTotal = Atomic<Int>(0)
    private let turn = Atomic<Int>(0)
    private let countChanges = BehaviorSubject<Int>(value: 0)
    /// Completes once draining and no connection is left.
    private let drained = AsyncSubject<Void>()
    private let state = Mutex((isDraining: false, openAcceptors: 0, keepAlive: Server?.none, drainStarted: ContinuousClock.Instant?.none))
    /// The timer of the drains, when the server records metrics.
    private let drainDuration: CoreMetrics.Timer?

    init(loops: [Loop], address: ServerAddress, options: ServerOptions, factory: ConnectionFactory) {
        self.loops = loops
        self.address = address
        self.options = options
        self.factory = factory
        let metricsFactory = options.metricsFactory ?? MetricsSystem.factory
        let label = options.metricsLabel ?? address.description
        self.label = label
        drainDuration = options.recordsMetrics ? ServerMetrics.drainDuration(server: label, factory: metricsFactory) : nil
        shards = loops.enumerated().map { index, loop in
            let metrics = options.recordsMetrics ? ServerMetrics(server: label, loop: loop, index: index, factory: metricsFactory) : nil
            return ServerShard(loop: loop, index: index, server: self, metrics: metrics)
        }
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Opens the listening sockets and starts accepting: one socket on the
    /// first loop, or one per loop with `.reusePort`. Runs on each
    /// acceptor's loop thread; `completion` gets the first error, once.
    func start(sockets: [ListeningSocket], completion: @escaping @Sendable (UVError?) -> Void) {
        acceptors = sockets.enumerated().map { Acceptor(loop: loops[$0], socket: $1, target: self, logger: options.logger) }
        state.withLock {
            $0.openAcceptors = acceptors.count
            $0.keepAlive = self
        }
        let remaining = Atomic<Int>(acceptors.count)
        let failure = Mutex<UVError?>(nil)
        for acceptor in acceptors {
            let queued = acceptor.loop.execute {
                do throws(UVError) {
                    try acceptor.start()
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    completion(failure.withLock { $0 })
                }
            }
            if !queued {
                acceptor.abandon()
                failure.withLock { $0 = $0 ?? UVError(code: .invalidArgument, operation: "Server (the loop is closed)") }
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    completion(failure.withLock { $0 })
                }
            }
        }
    }

    /// Open connections, over every loop.
    public var connectionCount: Int {
        total.load(ordering: .relaxed)
    }

    /// Connections served since the start (refused ones not counted).
    public var servedCount: Int {
        acceptedTotal.load(ordering: .relaxed)
    }

    /// Connections refused since the start, over `maxConnections`.
    public var refusedCount: Int {
        refusedTotal.load(ordering: .relaxed)
    }

    /// Open connections on each loop, in the order of `loops`.
    public var connectionCounts: [Int] {
        shards.map { $0.count.load(ordering: .relaxed) }
    }

    /// `true` once `drain` has started.
    public var isDraining: Bool {
        state.withLock { $0.isDraining }
    }

    /// The number of open connections, now and at each change, on the
    /// first loop's thread. Completes when the drain is done.
    public var connections: Observable<Int> {
        countChanges.distinctUntilChanged()
    }

    /// Stops accepting: closes the listening sockets, so new connects are
    /// refused. Open connections go on. Safe from any thread, any number of
    /// times.
    public func stopAccepting() {
        for acceptor in acceptors {
            _ = acceptor.loop.enter(acceptor, .close)
        }
    }

    /// Drains the server when subscribed: stops accepting (new connects are
    /// refused), tells every handler to finish (`ServedConnection.quiesce`),
    /// waits for the connections to close, and at `deadline` resets those
    /// still open. Completes, on a loop thread, once no connection is left.
    /// Draining twice waits for the same end. Disposing stops waiting (and
    /// the deadline's reset), not the drain. The deadline runs on one of the
    /// first loop's timers (`uv_timer_start`).
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func drain(deadline: RxTimeInterval) -> Completable {
        let server = self
        return Completable.create { observer in
            server.beginDrain()
            let done = server.drained.subscribe(onCompleted: { observer(.completed) })
            let reset = server.loops[0].rx.timer(after: deadline).subscribe(onNext: { _ in server.resetRemaining() })
            return Disposables.create(done, reset)
        }
    }

    /// `drain(deadline:)` with a `Duration`: when subscribed, stops
    /// accepting, tells every handler to finish, and at `deadline` (one of
    /// the first loop's timers, `uv_timer_start`) resets the connections
    /// still open. Completes, on a loop thread, once no connection is left;
    /// disposing stops waiting (and the deadline's reset), not the drain.
    @_disfavoredOverload
    public func drain(deadline: Duration) -> Completable {
        drain(deadline: RxTimeInterval(deadline))
    }

    /// Stops accepting and resets every connection now: a drain with no
    /// time to finish.
    func stopNow() {
        beginDrain()
        resetRemaining()
    }

    private func beginDrain() {
        let first = state.withLock { state -> Bool in
            defer { state.isDraining = true }
            if !state.isDraining {
                state.drainStarted = .now
            }
            return !state.isDraining
        }
        guard first else { return }
        stopAccepting()
        for shard in shards {
            _ = shard.loop.enter(shard, .quiesce)
        }
        finishDrainIfEmpty()
    }

    private func resetRemaining() {
        for shard in shards {
            _ = shard.loop.enter(shard, .reset)
        }
    }

    /// Completes the drain once no acceptor is open (one on another loop may
    /// still be accepting) and no connection is left.
    private func finishDrainIfEmpty() {
        let isEmpty = total.load(ordering: .acquiring) == 0
        let (done, started) = state.withLock { state -> (Bool, ContinuousClock.Instant?) in
            guard state.isDraining, state.openAcceptors == 0, isEmpty else { return (false, nil) }
            // The drain's duration is recorded once.
            defer { state.drainStarted = nil }
            return (true, state.drainStarted)
        }
        guard done else { return }
        if let started, let drainDuration {
            drainDuration.recordNanoseconds(RxTimeInterval(ContinuousClock.now - started).nanoseconds)
        }
        drained.onCompleted()
        _ = loops[0].enter(self, .countsDrained)
    }

    // MARK: Accepting

    /// A connection accepted by `acceptor`: refused above `maxConnections`,
    /// else counted and placed on a loop. The acceptor's loop thread.
    func accepted(_ descriptor: consuming OwnedDescriptor, by acceptor: Acceptor) {
        let loop = acceptor.loop
        if !reserve() {
            // Counted before the reset: a peer that sees it (on another
            // thread) then finds the refusal counted.
            refusedTotal.add(1, ordering: .relaxed)
            (shards.first { $0.loop === loop } ?? shards[0]).metrics?.refused.increment()
            ListeningSocket.refuse(descriptor)
            return
        }
        acceptedTotal.add(1, ordering: .relaxed)
        let shard = place(acceptedOn: loop)
        shard.count.add(1, ordering: .relaxed)
        shard.metrics?.accepted.increment()
        countChanged()
        if shard.loop === loop {
            shard.adopt(descriptor)
            return
        }
        // The number travels in the typed step; the shard owns it again on
        // arrival.
        let number = descriptor.handOver()
        if !shard.loop.enter(shard, .adopt(number)) {
            // That loop is closed (its group shut down): no new connection.
            ListeningSocket.refuse(OwnedDescriptor(number))
            connectionEnded(on: shard)
        }
    }

    /// Counts one more connection unless that would pass the limit.
    private func reserve() -> Bool {
        guard let limit = options.maxConnections else {
            total.add(1, ordering: .relaxed)
            return true
        }
        var current = total.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = total.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    private func place(acceptedOn loop: Loop) -> ServerShard {
        switch options.distribution {
        case .reusePort:
            return shards.first { $0.loop === loop } ?? shards[0]
        case .roundRobin:
            return shards[turn.wrappingAdd(1, ordering: .relaxed).oldValue % shards.count]
        case .leastConnections:
            return shards.min { $0.count.load(ordering: .relaxed) < $1.count.load(ordering: .relaxed) } ?? shards[0]
        }
    }

    /// A connection on `shard` is gone. Any loop thread.
    func connectionEnded(on shard: ServerShard) {
        shard.count.subtract(1, ordering: .relaxed)
        total.subtract(1, ordering: .acquiringAndReleasing)
        countChanged()
        if isDraining {
            finishDrainIfEmpty()
        }
        releaseIfFinished()
    }

    /// An acceptor closed its socket; a failure that ended it is reported.
    /// Its loop thread.
    func acceptorClosed(_ acceptor: Acceptor, error: UVError?) {
        if let error {
            report(error, ReportContext(loop: acceptor.loop, server: address.description, logger: options.logger))
        }
        state.withLock { $0.openAcceptors -= 1 }
        finishDrainIfEmpty()
        releaseIfFinished()
    }

    /// Lets go of the server's hold on itself once it neither accepts nor
    /// has a connection.
    private func releaseIfFinished() {
        let released = state.withLock { state -> Server? in
            guard state.openAcceptors == 0, total.load(ordering: .acquiring) == 0 else { return nil }
            defer { state.keepAlive = nil }
            return state.keepAlive
        }
        // Released outside the lock (the last reference may go here).
        _ = released
    }

    /// Tells `connections`' subscribers, on the first loop, when any.
    private func countChanged() {
        guard countChanges.hasObservers else { return }
        _ = loops[0].enter(self, .countChanged)
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

extension Server: LoopConfined {
    /// The loop `connections` is told on: the first.
    package var loop: Loop {
        loops[0]
    }

    /// On the first loop's thread: `.countChanged` emits the count;
    /// `.countsDrained` emits 0, whatever order the loops' changes came in,
    /// then completes `connections`.
    package func runOnLoopThread(_ step: ServerStep) {
        switch step {
        case .countChanged:
            countChanges.onNext(connectionCount)
        case .countsDrained:
            countChanges.onNext(0)
            countChanges.onCompleted()
        }
    }
}
