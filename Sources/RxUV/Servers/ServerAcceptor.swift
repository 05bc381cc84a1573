import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A server's listening socket on one loop: a `uv_poll_t` tells when
/// connections wait, which are accepted here (`accept`, by RxUV) and
/// handed to the server, which places each on a loop.
///
/// Running out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOMEM`,
/// `ENOBUFS`) is reported (`report`, with the server's address) and accepting
/// pauses for 100 ms (the socket stays readable, so accepting at once would
/// spin); other failures end accepting on this socket, also reported.
// @unchecked Sendable: handed to its loop's thread, where all of it is touched.
final class ServerAcceptor: UVPollTarget, UVTimerTarget, @unchecked Sendable {
    let loop: Loop
    private let socket: ListeningSocket
    private weak var server: Server?
    // Loop-thread state.
    private var poll: UVPoll?
    private var pause: LoopTimer?
    private var isClosed = false

    /// Connections accepted in one readiness callback, at most: the rest
    /// wait for the next turn of the loop, so one busy listener cannot
    /// starve the connections already open.
    private static let batch = 128

    init(loop: Loop, socket: ListeningSocket, server: Server) {
        self.loop = loop
        self.socket = socket
        self.server = server
    }

    /// What a report of this acceptor's failures says.
    private var context: ReportContext {
        ReportContext(loop: loop, server: socket.address.description)
    }

    /// Starts accepting. Loop thread.
    func start() throws(UVError) {
        let poll = try UVPoll(loop: loop, descriptor: socket.descriptor)
        try poll.closingIfFails { () throws(UVError) in try poll.startReading() }
        poll.target = self
        self.poll = poll
    }

    func pollReady(status: Int32) {
        guard status >= 0 else {
            report(UVError(status: status, operation: "uv_poll", address: socket.address.description), context)
            close()
            return
        }
        for _ in 0..<Self.batch {
            guard !isClosed, let server else { return }
            do throws(UVError) {
                guard let connection = try socket.accept() else { return }
                server.accepted(connection, on: self.loop)
            } catch {
                report(error, context)
                if UVError.Code.transientAcceptFailures.contains(error.code) {
                    pauseAccepting()
                } else {
                    close()
                }
                return
            }
        }
    }

    private func pauseAccepting() {
        poll?.stopReading()
        do throws(UVError) {
            let timer = LoopTimer(loop: loop)
            try timer.start(timeout: .milliseconds(100), repeating: nil)
            timer.target = self
            pause = timer
        } catch {
            close()
        }
    }

    func timerFired() {
        pause?.release()
        pause = nil
        do throws(UVError) {
            try poll?.startReading()
        } catch {
            report(error, context)
            close()
        }
    }

    /// The poll handle closed: by `close()`, or behind our back
    /// (`Loop.closeAll`). Either way the socket goes.
    func pollClosed() {
        poll = nil
        close()
    }

    /// Stops accepting and closes the socket: new connects are refused.
    /// Loop thread.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        pause?.release()
        pause = nil
        // uv_close stops polling at once: the descriptor may go now.
        poll?.close()
        poll = nil
        socket.close()
        server?.acceptorClosed()
    }
}

/// What a `ServerAcceptor` does on its loop's thread, asked from elsewhere.
enum ServerAcceptorStep {
    /// Stop accepting and close the socket.
    case close
}

extension ServerAcceptor: LoopThreadWork {
    func runOnLoopThread(_ step: ServerAcceptorStep) {
        switch step {
        case .close: close()
        }
    }
}
