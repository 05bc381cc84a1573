import RxCore
import Synchronization

/// A daemon's clean stop, set off by a signal: made by
/// `loop.rx.gracefulShutdown` or `group.rx.gracefulShutdown`, it watches
/// the signals from the start.
///
/// At the first signal (or `begin()`):
/// 1. `requested` emits the signal and completes: long-lived chains end
///    with `take(until: shutdown.requested)`;
/// 2. every server `add`ed drains (`Server.drain(deadline:)`): no new
///    connections, handlers told to finish, what is left reset at the
///    deadline; at the same time every `add(drain:)` work is subscribed (a
///    last flush, a goodbye), and the shutdown waits for it too, up to the
///    deadline;
/// 3. then every disposable `add`ed is disposed, the signal watchers close,
///    and every handle still open on the loops is closed (`Loop.closeAll`),
///    so `run()` returns (a group's loops then wait for `shutdown()`);
///    `completed` completes.
///
/// A second signal (or `now()`) skips the waiting: connections are reset
/// and step 3 runs at once.
///
/// It lives until it has finished: its signal watchers hold it.
///
/// Every member is safe from any thread.
// @unchecked Sendable: the mutable state is under `state`'s lock; subjects
// are thread-safe.
public final class GracefulShutdown: @unchecked Sendable {
    /// The loops it closes.
    public let loops: [Loop]
    /// How long the servers and the drain work get to finish, as given to
    /// `gracefulShutdown(on:deadline:)` (either overload).
    public let deadline: Duration

    private enum Phase {
        case running, draining, finished
    }

    private struct State {
        var phase = Phase.running
        var servers: [Server] = []
        /// Completables are immutable descriptions: handed to the thread
        /// that subscribes them, as `subscribe(on:)` hands them over.
        var work: [UncheckedSendable<Completable>] = []
        var disposables: [Disposable] = []
        var watchers: Disposable?
        var drains: Disposable?
    }

    private let state = Mutex(State())
    private let requestedSubject = AsyncSubject<Int32>()
    private let finished = AsyncSubject<Void>()

    init(loops: [Loop], signals: [Int32], deadline: Duration) {
        self.loops = loops
        self.deadline = deadline
        // The watchers hold the shutdown until it finishes (they are
        // disposed then): a daemon need not keep a reference to it.
        let watchers = Observable.merge(signals.map { loops[0].rx.signal($0) })
            .subscribe(onNext: { [self] signal in received(signal) })
        let late = state.withLock { state -> Bool in
            state.watchers = watchers
            return state.phase == .finished
        }
        if late { watchers.dispose() }
    }

    /// Emits the signal that started the shutdown (`SIGTERM` for `begin()`)
    /// and completes, on the first loop's thread. Chain
    /// `take(until: shutdown.requested)` onto what should end then.
    public var requested: Observable<Int32> {
        requestedSubject.asObservable()
    }

    /// Completes once the shutdown is done: the servers drained (or reset)
    /// and every loop has closed what was left (`Loop.closeAll`, whose
    /// close callbacks follow on each loop's next turn).
    public var completed: Completable {
        finished.asObservable().ignoreElements().asCompletable()
    }

    /// Drains `server` at shutdown. Added while the shutdown drains, it is
    /// stopped at once (no new connections, what is open reset); added
    /// after, too.
    public func add(_ server: Server) {
        let phase = state.withLock { state -> Phase in
            if state.phase != .finished {
                state.servers.append(server)
            }
            return state.phase
        }
        if phase != .running {
            server.stopNow()
        }
    }

    /// Disposes `disposable` at shutdown, after the servers drained (at once
    /// if the shutdown is over).
    public func add(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            guard state.phase != .finished else { return true }
            state.disposables.append(disposable)
            return false
        }
        if disposeNow {
            disposable.dispose()
        }
    }

    /// Runs `work` when the shutdown begins, beside the servers' drains,
    /// and waits for it before step 3 (disposing what was added, closing
    /// what is left): a daemon's last flush or goodbye, written after
    /// `requested` has ended what produces the data. The wait is bounded by
    /// `deadline`; a failure or the deadline is reported to
    /// the first loop's logger (`Loop.logger`) and the shutdown goes on. A second signal
    /// (or `now()`) disposes it. Added once the shutdown has begun, `work`
    /// runs at once and is not waited for; added after it finished, it does
    /// not run.
    public func add(drain work: Completable) {
        let phase = state.withLock { state -> Phase in
            if state.phase == .running {
                state.work.append(UncheckedSendable(work))
            }
            return state.phase
        }
        if phase == .draining {
            _ = bounded(work).subscribe()
        }
    }

    /// `work` ending by the deadline, its failure reported instead of
    /// passed on.
    private func bounded(_ work: Completable) -> Completable {
        work.asObservable()
            .timeout(RxTimeInterval(deadline), scheduler: loops[0])
            .catch { error in
                report(error, ReportContext(loop: self.loops[0]))
                return .empty()
            }
            .asCompletable()
    }

    /// Starts the shutdown as a first `SIGTERM` would; once it has begun,
    /// does nothing (`now()` ends it at once). What a service lifecycle's
    /// graceful shutdown calls.
    ///
    /// - Parameter signals: signals that, once this call has begun the
    ///   shutdown, end it at once (as a second signal does for the signals
    ///   it watches from the start), watched on the first loop until the
    ///   shutdown finishes. Watched only by the call that begins it.
    public func begin(escalatingOn signals: [Int32] = []) {
        guard received(15, whenRunningOnly: true), !signals.isEmpty else { return }
        let loop = loops[0]
        add(
            Observable.merge(signals.map { loop.rx.signal($0) })
                .take(1)
                .subscribe(onNext: { [self] _ in now() }, onError: { _ in })
        )
    }

    /// Shuts down at once, as a second signal would.
    public func now() {
        finish()
    }

    /// A signal arrived (or `begin()`): the first begins the shutdown, a
    /// later one ends it at once, unless `whenRunningOnly` (then a later
    /// one does nothing). Returns whether this call began it.
    @discardableResult
    private func received(_ signal: Int32, whenRunningOnly: Bool = false) -> Bool {
        let taken = state.withLock { state -> (servers: [Server], work: [UncheckedSendable<Completable>])? in
            guard state.phase == .running else { return nil }
            state.phase = .draining
            defer { state.work = [] }
            return (state.servers, state.work)
        }
        guard let taken else {
            if !whenRunningOnly {
                // A second signal: no more waiting.
                finish()
            }
            return false
        }
        requestedSubject.onNext(signal)
        requestedSubject.onCompleted()
        let drains = Completable.zip(taken.servers.map { $0.drain(deadline: deadline) } + taken.work.map { bounded($0.value) })
            .subscribe(onCompleted: { [self] in finish() })
        let late = state.withLock { state -> Bool in
            state.drains = drains
            return state.phase == .finished
        }
        if late { drains.dispose() }
        return true
    }

    private func finish() {
        let taken = state.withLock { state -> State? in
            guard state.phase != .finished else { return nil }
            state.phase = .finished
            defer {
                state.servers = []
                state.disposables = []
                state.watchers = nil
                state.drains = nil
            }
            return state
        }
        guard let taken else { return }
        // Ignored when the first signal has told it already.
        requestedSubject.onNext(15)
        requestedSubject.onCompleted()
        // Servers that drained are stopped already; the others are reset
        // now, queued on each loop before the closeAll below, so they see
        // their connections close.
        for server in taken.servers {
            server.stopNow()
        }
        taken.drains?.dispose()
        taken.disposables.forEach { $0.dispose() }
        taken.watchers?.dispose()
        let remaining = Atomic<Int>(loops.count)
        let finished = finished
        for loop in loops {
            let queued = loop.enter {
                loop.closeAll()
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    finished.onCompleted()
                }
            }
            if !queued, remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                finished.onCompleted()
            }
        }
    }
}
