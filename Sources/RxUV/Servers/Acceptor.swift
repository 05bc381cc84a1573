import Logging
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// What an `Acceptor` tells its owner, on the acceptor's loop thread.
protocol AcceptorTarget: AnyObject {
    /// A connection arrived; `descriptor` (closed on exec) is the target's
    /// now.
    func accepted(_ descriptor: consuming OwnedDescriptor, by acceptor: Acceptor)
    /// Accepting has ended: `error` when a failure ended it, `nil` when the
    /// acceptor was closed (by its owner, or by `Loop.closeAll`).
    func acceptorClosed(_ acceptor: Acceptor, error: UVError?)
}

/// The one accept path of the bridge, behind `loop.rx.listen` and `Server`:
/// a `ListeningSocket` watched by a `uv_poll_t`, whose connections are
/// accepted here (`accept`, through `systemCall`) and handed to the target,
/// so that a connection can be opened on any loop (libuv accepts only onto
/// the loop of its listener).
///
/// A connection that went wrong before it was accepted (`ECONNABORTED`: the
/// client reset it; the network errors Linux hands on from the pending
/// connection, such as `EPROTO`, `ENETDOWN`, `EHOSTUNREACH`; `EPERM` from a
/// firewall rule) is skipped, and accepting goes on. Running out of
/// descriptors or memory (`EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`) is
/// reported (`report`, with the listening address: the first time, then at
/// most once every 10 s while it lasts, not once per pause) and accepting
/// pauses for 100 ms, then resumes: the
/// waiting connections stay in the kernel's backlog and are accepted as
/// soon as descriptors free up. (libuv's own answer, a reserved descriptor
/// closed to accept and drop the pending connection, turns away a client
/// that a moment later could have been served, and in a process with a
/// loop per core another thread can take the freed descriptor first.) The
/// socket stays readable meanwhile, so accepting again at once would spin.
/// Any other failure ends accepting: the target hears it and the socket
/// closes.
///
/// An acceptor is what a listen subscription owns (`HandleSink.own`):
/// releasing it closes the poll handle and the socket. Loop thread only.
// @unchecked Sendable: handed to its loop's thread, where all of it is touched.
final class Acceptor: UVResource, UVPollTarget, UVTimerTarget, @unchecked Sendable {
    let socket: ListeningSocket
    /// Held until the acceptor closes.
    private var target: AcceptorTarget?
    private var poll: Owned<UVPoll>?
    private var pause: Owned<LoopTimer>?
    private var isClosed = false
    /// Where reports go: a server's logger, or `nil` for the loop's.
    private let logger: Logger?

    /// Connections accepted in one readiness callback, at most: the rest
    /// wait for the next turn of the loop, so one busy listener cannot
    /// starve the connections already open.
    private static let batch = 128

    /// How long accepting pauses after running out of a resource, in
    /// milliseconds.
    static let pauseMilliseconds: UInt64 = 100

    /// Failures of one pending connection: skipped.
    static let skippedFailures: Set<UVError.Code> = [
        .connectionAborted, .notPermitted,
        UVError.Code(rawValue: -EPROTO), UVError.Code(rawValue: -ENETDOWN), UVError.Code(rawValue: -EHOSTUNREACH),
        UVError.Code(rawValue: -ENETUNREACH), UVError.Code(rawValue: -ENONET), UVError.Code(rawValue: -EHOSTDOWN),
        UVError.Code(rawValue: -ENOPROTOOPT), UVError.Code(rawValue: -EOPNOTSUPP),
    ]

    /// While a resource is short, a report at most this often, in
    /// milliseconds: a server at its descriptor limit pauses ten times a
    /// second, and its log should say so once, not ten times.
    static let reportIntervalMilliseconds: UInt64 = 10_000

    /// When a shortage was last reported (loop clock); `nil`: never.
    private var lastShortageReport: UInt64?

    /// Running out of a resource: reported, and accepting pauses.
    static let pausingFailures: Set<UVError.Code> = [.tooManyOpenFiles, .fileTableOverflow, .outOfMemory, .noBufferSpace]

    init(loop: Loop, socket: ListeningSocket, target: AcceptorTarget, logger: Logger? = nil) {
        self.socket = socket
        self.target = target
        self.logger = logger
        super.init(loop: loop, retainsLoop: true)
    }

    /// What a report of this acceptor's failures says.
    private var context: ReportContext {
        ReportContext(loop: loop, server: socket.address.description, logger: logger)
    }

    /// Starts accepting (`uv_poll_init`, `uv_poll_start`). On failure the
    /// socket is closed (the target hears `acceptorClosed` with no error)
    /// and the error thrown. Loop thread.
    func start() throws(UVError) {
        assertConfined()
        do throws(UVError) {
            // A throw from `startReading` drops `poll`, which closes it.
            let poll = Owned(try UVPoll(loop: loop, descriptor: socket.descriptor))
            try poll.resource.startReading()
            poll.resource.target = self
            self.poll = consume poll
        } catch {
            close(with: nil)
            throw error
        }
    }

    func pollReady(status: Int32) {
        assertConfined()
        guard status >= 0 else {
            close(with: UVError(status: status, operation: "uv_poll", address: socket.address.description))
            return
        }
        for _ in 0..<Self.batch {
            guard !isClosed, let target else { return }
            do throws(UVError) {
                guard let connection = try socket.accept() else { return }
                target.accepted(connection, by: self)
            } catch  where Self.skippedFailures.contains(error.code) {
                continue
            } catch {
                if Self.pausingFailures.contains(error.code) {
                    let now = loop.clockMilliseconds
                    if lastShortageReport.map({ now &- $0 >= Self.reportIntervalMilliseconds }) ?? true {
                        lastShortageReport = now
                        report(error, context)
                    }
                    pauseAccepting()
                } else {
                    close(with: error)
                }
                return
            }
        }
    }

    private func pauseAccepting() {
        poll?.resource.stopReading()
        do throws(UVError) {
            let timer = LoopTimer(loop: loop)
            try timer.start(milliseconds: Self.pauseMilliseconds, periodMilliseconds: 0)
            timer.target = self
            pause = Owned(timer)
        } catch {
            close(with: error)
        }
    }

    func timerFired() {
        assertConfined()
        pause.take()?.release()
        do throws(UVError) {
            try poll?.resource.startReading()
        } catch {
            close(with: error)
        }
    }

    /// The poll handle closed: by `close`, or behind our back
    /// (`Loop.closeAll`). Either way the socket goes.
    func pollClosed() {
        _ = poll.take()?.handOver()
        close(with: nil)
    }

    /// Closes the socket of an acceptor that never started, from any thread:
    /// its loop refused the work (the loop is closed), so nothing of it is
    /// on that loop. The target hears `acceptorClosed` with no error.
    func abandon() {
        guard !isClosed, poll == nil else { return }
        isClosed = true
        socket.close()
        let target = self.target
        self.target = nil
        target?.acceptorClosed(self, error: nil)
    }

    /// Stops accepting and closes the socket: new connects are refused.
    override func release() {
        close(with: nil)
    }

    /// Closes the poll handle, the pause timer and the socket, then tells
    /// the target why accepting ended. Loop thread.
    private func close(with error: UVError?) {
        assertConfined()
        guard !isClosed else { return }
        isClosed = true
        pause.take()?.release()
        // uv_close stops polling at once: the descriptor may go now.
        poll.take()?.release()
        socket.close()
        let target = self.target
        self.target = nil
        target?.acceptorClosed(self, error: error)
    }
}
