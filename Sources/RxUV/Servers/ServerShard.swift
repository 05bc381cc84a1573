import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server's part on one loop: the connections that live there, each with
/// its handler's subscription and quiesce signal, and the idle sweep.
// @unchecked Sendable: `count` is atomic; the rest is touched on the loop's
// thread only (connections arrive through `Loop.execute`).
final class ServerShard: UVTimerTarget, @unchecked Sendable {
    let loop: Loop
    let index: Int
    /// Connections open here (also read by other loops' acceptors, for
    /// least-connections).
    let count = Atomic<Int>(0)
    /// Weak: the server keeps itself alive while it has a connection.
    private weak var server: Server?

    private struct Entry {
        let connection: StreamConnection
        let quiesce: AsyncSubject<Void>
        let handling: SingleAssignmentDisposable
        let watchingClose: SingleAssignmentDisposable
        /// The handler has ended; the connection closes once its writes
        /// are flushed.
        var isClosing = false
    }

    // Loop-thread state.
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var sweep: LoopTimer?
    private var isQuiescing = false
    /// The server is resetting: a connection still on its way is reset as
    /// it arrives.
    private var isResetting = false

    /// What the server listens on: which stream an accepted descriptor becomes.
    private let address: ServerAddress

    init(loop: Loop, index: Int, server: Server) {
        self.loop = loop
        self.index = index
        self.server = server
        self.address = server.address
    }

    /// Opens the accepted `descriptor` here (`uv_tcp_open`, or
    /// `uv_pipe_open` for a Unix-domain server) and runs the handler on it.
    /// The server has counted it already; it is uncounted when the
    /// connection has closed. Loop thread.
    func adopt(_ descriptor: Int32) {
        let connection: StreamConnection
        do throws(UVError) {
            switch address {
            case .ip:
                let handle = try UVTCP(loop: loop)
                try handle.closingIfFails { () throws(UVError) in try handle.open(descriptor) }
                connection = TCPConnection(handle: handle)
            case .unix(let path):
                let handle = try UVPipe(loop: loop)
                try handle.closingIfFails { () throws(UVError) in try handle.open(descriptor, address: UnixSocketPath.display(path)) }
                connection = UnixConnection(handle: handle)
            }
            connection.closesWhenReadingEnds = false
        } catch {
            systemClose(descriptor)
            report(error, ReportContext(loop: loop, server: address.description))
            server?.connectionEnded(on: self)
            return
        }
        guard let server else {
            connection.closeNow(reset: true)
            return
        }
        let key = ObjectIdentifier(connection)
        let entry = Entry(connection: connection, quiesce: AsyncSubject(), handling: SingleAssignmentDisposable(), watchingClose: SingleAssignmentDisposable())
        entries[key] = entry
        if isQuiescing {
            entry.quiesce.onNext(())
            entry.quiesce.onCompleted()
        }
        startSweepIfNeeded()
        // `rx.writable` completes when the connection has closed, however it
        // closes (the handler's end, the peer, a reset).
        entry.watchingClose.setDisposable(connection.rx.writable.subscribe(onCompleted: { [self] in closed(key) }))
        let served = ServedConnection(connection: connection, loop: loop, quiesce: entry.quiesce.asObservable())
        // The handler's end may come on another thread (a chain that ends
        // with `observe(on:)` elsewhere): the table is this loop's.
        entry.handling.setDisposable(
            server.handler(served).subscribe(
                onCompleted: { [self] in _ = loop.onLoopThread(self, .finish(key)) },
                onError: { [self] error in
                    // Reported where it arrives: it cannot reach a subscriber.
                    report(error, ReportContext(loop: loop, server: address.description, peer: connection.peerDescription))
                    _ = loop.onLoopThread(self, .finish(key))
                }))
        if isResetting {
            finish(key, reset: true)
        }
    }

    /// A handler ended (or the server ends it): closes the connection once
    /// its writes are flushed, or at once with a reset. Loop thread.
    private func finish(_ key: ObjectIdentifier, reset: Bool = false) {
        guard let entry = entries[key] else { return }
        entries[key]?.isClosing = true
        entry.handling.dispose()
        if reset {
            entry.connection.closeNow(reset: true)
        } else {
            entry.connection.closeGracefully()
        }
    }

    /// The connection has closed: uncounted. Loop thread.
    private func closed(_ key: ObjectIdentifier) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        entry.handling.dispose()
        entry.watchingClose.dispose()
        if entries.isEmpty {
            sweep?.release()
            sweep = nil
        }
        server?.connectionEnded(on: self)
    }

    /// Tells every handler here to finish, and every later one at once.
    /// Loop thread.
    func quiesce() {
        isQuiescing = true
        for entry in entries.values {
            entry.quiesce.onNext(())
            entry.quiesce.onCompleted()
        }
    }

    /// Resets every connection still here (a drain's deadline). Loop thread.
    func resetAll() {
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
            let period = max(LoopTimer.milliseconds(idle) / 4, 1)
            try timer.start(milliseconds: period, periodMilliseconds: period)
            timer.target = self
            sweep = timer
        } catch {
            report(error, ReportContext(loop: loop, server: address.description))
        }
    }

    /// Closes the connections idle for the timeout or longer.
    func timerFired() {
        guard let idle = server?.options.idleTimeout else { return }
        let limit = LoopTimer.milliseconds(idle)
        let now = loop.clockMilliseconds
        // An idle one closes; one still closing after as long (its peer
        // does not read what is left to write) is reset.
        for (key, entry) in entries where now &- entry.connection.lastActivity >= limit {
            finish(key, reset: entry.isClosing)
        }
    }
}

/// What a `ServerShard` does on its loop's thread, asked from elsewhere.
enum ServerShardStep {
    /// Open an accepted descriptor here and run the handler on it.
    case adopt(Int32)
    /// A handler ended (its end may come on another thread).
    case finish(ObjectIdentifier)
    /// The server drains: tell the handlers.
    case quiesce
    /// The drain's deadline, or a stop: reset what is left.
    case reset
}

extension ServerShard: LoopThreadWork {
    func runOnLoopThread(_ step: ServerShardStep) {
        switch step {
        case .adopt(let descriptor): adopt(descriptor)
        case .finish(let key): finish(key)
        case .quiesce: quiesce()
        case .reset: resetAll()
        }
    }
}
