import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// One connection's HTTP/2: an `HTTP2Session` fed the stream's reads, its
/// streams each answered by the handler as an HTTP/1.1 request is, and
/// what the session has to send written once per read (the frames a
/// read's requests and answers produce go out as one write when the
/// read's handling ends), or at once for an answer that comes later. The
/// session's output waits while the stream is unwritable, so a client
/// that does not read holds its own answers, not the server's memory.
///
/// Ends (the `Completable` of `serveHTTP2` completes, and the server closes
/// the stream after its writes) when the session is over (a GOAWAY after
/// a connection error or a flood), at the peer's end of input, at the idle
/// timeout (a GOAWAY first), or on a drain once the streams in hand are
/// answered (GOAWAY names the last stream taken).
///
/// What changes is in `state` (`HTTP2ServerConnectionState`), on the loop
/// thread; `life`'s disposal, the handler's answers and write failures may
/// come from any thread and enter the loop.
// @unchecked Sendable: every mutable field is in `state`, a `LoopBound`;
// the rest are constants of Sendable types, but for the
// `SingleAssignmentDisposable` (thread-safe).
final class HTTP2ServerConnection: ByteStreamReader, HTTP2SessionDelegate, HTTP2OutputOwner, HTTPWriteFailureListener, @unchecked Sendable {
    let stream: any ByteStream
    let loop: Loop
    let quiesce: Observable<Void>
    /// The server's name, for reports.
    let server: String
    let options: HTTPServerOptions
    let http2: HTTP2Options
    let handler: HTTPHandler
    /// The head and idle timeouts in nanoseconds (0: none), converted once.
    let headTimeout: Int64
    let idleTimeout: Int64
    let state: LoopBound<HTTP2ServerConnectionState>
    let quiescing = SingleAssignmentDisposable()
    /// What every write of this connection reports to.
    let writeWatcher: HTTPWriteWatcher
    /// The session's way out.
    let output: HTTP2Output

    init<Connection: ByteStream>(_ served: ServedConnection<Connection>, options: HTTPServerOptions, http2: HTTP2Options, handler: @escaping HTTPHandler) {
        self.stream = served.connection
        self.loop = served.loop
        self.quiesce = served.quiesce
        self.server = served.server
        self.options = options
        self.http2 = http2
        self.handler = handler
        self.headTimeout = options.headTimeout > .zero ? RxTimeInterval(options.headTimeout).nanoseconds : 0
        self.idleTimeout = options.idleTimeout > .zero ? RxTimeInterval(options.idleTimeout).nanoseconds : 0
        let now = Loop.monotonicNanoseconds
        self.state = LoopBound(
            HTTP2ServerConnectionState(
                controlBudget: HTTP2FrameBudget(burst: http2.controlFrameBurst, perSecond: http2.controlFramesPerSecond, now: now),
                resetBudget: HTTP2FrameBudget(burst: http2.resetBurst, perSecond: http2.resetsPerSecond, now: now)),
            loop: served.loop)
        self.writeWatcher = HTTPWriteWatcher(loop: served.loop)
        self.output = HTTP2Output(stream: served.connection, watcher: writeWatcher)
    }

    /// The connection's life: starts the session and reading when
    /// subscribed, completes when the connection should close. Disposing
    /// stops it.
    var life: Completable {
        HTTPConnectionLife.completable(on: loop, start: { [self] in start($0) }, stop: { [self] in finish(notify: false) })
    }

    /// The peer's description, asked for once.
    var peer: String? {
        if let peer = state.value.peer { return peer }
        let peer = stream.peerDescription
        state.value.peer = peer
        return peer
    }

    var reportContext: ReportContext {
        ReportContext(loop: loop, server: server, peer: peer)
    }

    // MARK: Starting

    func start(_ observer: @escaping (CompletableEvent) -> Void) {
        guard case .waiting = state.value.phase else { return }
        let settings: [(id: Int32, value: UInt32)] = [
            (HTTP2Setting.maxConcurrentStreams, UInt32(clamping: max(http2.maxConcurrentStreams, 0))),
            (HTTP2Setting.initialWindowSize, UInt32(clamping: min(max(http2.initialWindowSize, 0), Int(Int32.max)))),
            (HTTP2Setting.maxHeaderListSize, UInt32(clamping: max(options.limits.maxHeadLength, 0))),
        ]
        let session: HTTP2Session
        do throws(HTTP2SessionError) {
            session = try HTTP2Session(serverFor: self, settings: settings, limits: http2.sessionLimits)
        } catch {
            report(error, reportContext)
            observer(.completed)
            return
        }
        state.value.phase = .serving(session)
        state.value.observer = observer
        writeWatcher.watch(for: self)
        quiescing.setDisposable(quiesce.subscribe(onNext: { [self] in drainStarted() }))
        becameIdle()
        stream.beginReading(self)
        flush()
    }

    /// The session, while the connection serves or drains.
    var session: HTTP2Session? {
        switch state.value.phase {
        case .serving(let session), .draining(let session): session
        case .waiting, .closed: nil
        }
    }

    // MARK: ByteStreamReader

    func received(_ bytes: ByteBuffer) {
        guard let session else { return }
        output.readBegan()
        do throws(HTTP2SessionError) {
            try session.receive(bytes)
        } catch {
            // A fatal error (a flood nghttp2 bounds itself, a bad preface):
            // the GOAWAY goes out, then the connection ends.
            if !state.value.sessionFailed {
                state.value.sessionFailed = true
                report(error, reportContext, level: .warning)
                session.terminate(error.goAwayCode)
            }
        }
    }

    func readComplete() {
        output.readEnded()
        flush()
    }

    func ended(_ error: (any Error)?) {
        state.value.inputEnded = true
        finish()
    }

    // MARK: Writing

    /// Writes what the session has to send (`HTTP2Output`).
    func flush() {
        guard let session else { return }
        output.flush(session, for: self)
    }

    /// Everything the session had went out: the connection ends once the
    /// session is over, or the drain has answered every stream.
    func outputWritten(_ session: HTTP2Session) {
        if state.value.sessionFailed || session.isOver {
            finish()
        } else if case .draining = state.value.phase, state.value.streams.isEmpty {
            finish()
        }
    }

    func outputFailed(_ error: HTTP2SessionError) {
        report(error, reportContext)
        finish()
    }

    /// A write failed, on any thread: the read side sees the same failure;
    /// stop answering.
    func writeFailed() {
        loop.enter { [self] in finish() }
    }

    func sessionPeerSettings() {
        // The client's limits bind nghttp2's output; nothing waits on them.
    }

    func sessionGoAway(lastStream: Int32, code: UInt32) {
        // The client opens no more streams: those open are answered, and
        // the connection ends at the client's end of input.
    }

    // MARK: The drain

    func drainStarted() {
        guard case .serving(let session) = state.value.phase else { return }
        session.goAway(.noError)
        state.value.phase = .draining(session)
        flush()
    }

    // MARK: Ending

    /// Ends the connection: stops reading, timers and every stream's work;
    /// the server then closes the stream after its writes.
    func finish(notify: Bool = true) {
        if case .closed = state.value.phase { return }
        let wasStarted: Bool
        if case .waiting = state.value.phase { wasStarted = false } else { wasStarted = true }
        // The session may outlive this call (a callback under way holds
        // it): the streams let go below are detached from it first.
        if let session {
            for id in state.value.streams.keys { session.detach(from: id) }
        }
        state.value.phase = .closed
        let observer = state.value.observer
        state.value.observer = nil
        state.value.timer?.dispose()
        state.value.timer = nil
        output.stop()
        quiescing.dispose()
        if wasStarted, !state.value.inputEnded { stream.endReading(self) }
        let streams = state.value.streams
        state.value.streams = [:]
        for (_, open) in streams {
            stopStream(open, cause: HTTP2StreamError(code: .cancel))
        }
        writeWatcher.watch(for: nil)
        if notify { observer?(.completed) }
    }
}
