import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2

/// One HTTP/2 connection of a host's pool (ALPN `h2`, or prior
/// knowledge): many exchanges at once, each on its own stream, up to the
/// server's concurrent-stream limit. An `HTTP2Session` is fed the
/// stream's reads; what it has to send goes out through `HTTP2Output`
/// (once per read batch, at once otherwise, never while the stream is
/// unwritable). A request's body is pulled into DATA frames as the
/// server's windows allow; a response's body opens its stream's window
/// only as its reader reads.
///
/// Takes streams until it goes away: a GOAWAY from the server (the
/// streams above its last are retried elsewhere), the client's shutdown,
/// or `idleTimeout` with no stream open; then it closes once its streams
/// have ended. A session error, the end of the server's input or a failed
/// write closes it at once: the exchanges it carries fail (or, before any
/// byte of their responses, go back to the pool once when they may).
///
/// Its state is in one `LoopBound`; every method runs on the loop thread.
// @unchecked Sendable: every mutable field is in `state`, a `LoopBound`;
// the rest are constants of Sendable types.
final class HTTP2ClientConnection: ByteStreamReader, HTTP2SessionDelegate, HTTP2OutputOwner, HTTPWriteFailureListener, @unchecked Sendable {
    let stream: any ByteStream
    let loop: Loop
    let pool: HTTPHostPool
    let writeWatcher: HTTPWriteWatcher
    let output: HTTP2Output
    let state: LoopBound<HTTP2ClientConnectionState>

    /// The most streams open at once, whatever the server allows.
    static let streamLimit = 1000
    /// The connection's receive window: the streams' data is taken off it
    /// at once (each stream's own window holds what its reader has not
    /// read).
    static let connectionWindow: Int32 = 1 << 24

    init(stream: any ByteStream, pool: HTTPHostPool) {
        self.stream = stream
        self.loop = stream.loop
        self.pool = pool
        self.writeWatcher = HTTPWriteWatcher(loop: stream.loop)
        self.output = HTTP2Output(stream: stream, watcher: writeWatcher)
        self.state = LoopBound(HTTP2ClientConnectionState(), loop: stream.loop)
    }

    /// Starts the session (its preface and SETTINGS: no push, each
    /// stream's window the response buffer's size, the head limit) and
    /// reading.
    func start() {
        let configuration = pool.configuration
        let settings: [(id: Int32, value: UInt32)] = [
            (HTTP2Setting.enablePush, 0),
            (HTTP2Setting.initialWindowSize, UInt32(clamping: min(max(configuration.responseBufferSize, 1), Int(Int32.max)))),
            (HTTP2Setting.maxHeaderListSize, UInt32(clamping: max(configuration.limits.maxHeadLength, 0))),
        ]
        let limits = HTTP2SessionLimits(maxContinuations: 16, maxSettingsEntries: 32, maxOutboundAcks: 1000)
        do throws(HTTP2SessionError) {
            state.value.session = try HTTP2Session(clientFor: self, settings: settings, limits: limits, connectionWindow: Self.connectionWindow)
        } catch {
            close(error)
            return
        }
        writeWatcher.watch(for: self)
        stream.beginReading(self)
        // The server's SETTINGS must come within the connect timeout.
        let timeout = configuration.connectTimeout
        state.value.idleTimer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
            state.value.idleTimer = nil
            close(HTTPClientError(.connectTimeout, "no HTTP/2 SETTINGS from \(pool.key) within \(timeout)"))
            return Disposables.create()
        }
        flush()
    }

    /// Whether the connection takes new streams.
    var takesStreams: Bool {
        !state.value.isClosed && !state.value.isGoingAway && state.value.session != nil
    }

    /// Whether it takes one more stream now: it takes streams, the
    /// server's SETTINGS came, and fewer are open than it allows.
    var hasRoom: Bool {
        guard takesStreams, state.value.hasPeerSettings, let session = state.value.session else { return false }
        return state.value.streams.count < min(session.peerMaxConcurrentStreams, Self.streamLimit)
    }

    // MARK: Exchanges

    /// Carries `exchange` on a new stream: its head as a HEADERS frame, its
    /// body as DATA frames as it comes and the server's windows allow.
    func run(_ exchange: HTTPClientExchange) {
        guard let session = state.value.session, takesStreams else {
            pool.retry(exchange)
            return
        }
        cancelIdleTimer()
        let open = HTTP2ClientStream(connection: self, exchange: exchange)
        let content = exchange.body.content
        let hasBody: Bool
        switch content {
        case .bytes(let bytes):
            hasBody = !bytes.isEmpty
            open.outbound = HTTP2BodyQueue(bytes: bytes)
        case .file(let file, let range):
            hasBody = !range.isEmpty
            open.outbound.send(file, range: range)
        case .stream(_, let length), .paced(_, let length):
            hasBody = length != 0
        }
        guard let id = session.submitRequest(fields: HTTP2FieldBlock(request: exchange.head, isSecure: pool.key.isSecure), hasBody: hasBody)
        else {
            // The session's stream identifiers are spent: a new connection
            // takes the request.
            state.value.isGoingAway = true
            pool.goingAway(self)
            pool.retry(exchange)
            closeIfDone()
            return
        }
        open.id = id
        open.requestSent = !hasBody
        state.value.streams[id] = open
        session.attach(open, to: id)
        exchange.state.value.phase = .sending(open)
        if hasBody { sendBody(of: open, content) }
        if let timeout = pool.configuration.headTimeout {
            open.timer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
                open.timer = Disposables.create()
                fail(open, HTTPClientError(.headTimeout, "no response head from \(pool.key) within \(timeout)"))
                return Disposables.create()
            }
        }
        flush()
    }

    /// Starts a streamed or paced request body.
    private func sendBody(of open: HTTP2ClientStream, _ content: HTTPClientRequestBody.Content) {
        switch content {
        case .stream(let source, let length):
            open.bodyWork = source.subscribe(HTTP2BodyWriter(sender: open, length: length))
        case .paced(let body, let length):
            let pace = BehaviorSubject(value: true)
            open.pace = pace
            let paced = HTTPBodyPace(
                loop: loop, isWritable: { open.outbound.queuedBytes <= HTTP2BodyWriter<HTTP2ClientStream>.paceLimit },
                writability: { pace.asObservable() })
            open.bodyWork = body.pieces(pacedBy: paced).subscribe(HTTP2BodyWriter(sender: open, length: length))
        case .bytes, .file:
            break
        }
    }

    /// More of `open`'s request body waits: nghttp2 asks for it again.
    func resume(_ open: HTTP2ClientStream) {
        guard let session = state.value.session, !open.isClosed else { return }
        if open.outbound.isDeferred {
            open.outbound.isDeferred = false
            session.resumeBody(stream: open.id)
        }
        flush()
    }

    /// `open`'s request body failed (its source's error, a length that
    /// does not match): the stream is reset and the exchange fails.
    func requestBodyFailed(_ open: HTTP2ClientStream, _ error: any Error) {
        let error = (error as? HTTP2BodyLengthError).map { HTTPClientError(.bodyLengthMismatch, $0.description) } ?? error
        fail(open, error)
    }

    /// The caller let `open`'s exchange go (disposed before the head, or
    /// its body's reader left): the stream is reset with `CANCEL`.
    func cancel(_ open: HTTP2ClientStream) {
        guard !open.isClosed else { return }
        open.exchange.finish()
        reset(open)
    }

    /// `open`'s exchange fails with `error` (its timeout, its body): the
    /// body's reader or the caller hears it; the stream is reset.
    func fail(_ open: HTTP2ClientStream, _ error: any Error) {
        guard !open.isClosed else { return }
        let body = open.body
        open.body = nil
        if open.headArrived {
            open.exchange.finish()
            body?.fail(error)
        } else {
            open.exchange.fail(error)
        }
        reset(open)
    }

    /// Resets `open` (`CANCEL`); it ends when the reset goes out.
    private func reset(_ open: HTTP2ClientStream) {
        guard let session = state.value.session else { return }
        session.reset(stream: open.id, code: .cancel)
        flush()
    }

    // MARK: ByteStreamReader

    func received(_ bytes: ByteBuffer) {
        guard let session = state.value.session else { return }
        output.readBegan()
        do throws(HTTP2SessionError) {
            try session.receive(bytes)
        } catch {
            // The server broke the protocol: nghttp2's GOAWAY goes out,
            // then the connection closes.
            if state.value.sessionFailed == nil {
                state.value.sessionFailed = error
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
        close(error ?? HTTPClientError(.connectionClosed, "\(pool.key) closed the connection"))
    }

    // MARK: Writing

    func flush() {
        guard let session = state.value.session else { return }
        output.flush(session, for: self)
    }

    func outputWritten(_ session: HTTP2Session) {
        if let error = state.value.sessionFailed {
            close(error)
        } else if session.isOver {
            close(HTTPClientError(.connectionClosed, "\(pool.key) closed the HTTP/2 session"))
        }
    }

    func outputFailed(_ error: HTTP2SessionError) {
        close(error)
    }

    func writeFailed() {
        loop.enter { [self] in
            close(HTTPClientError(.connectionClosed, "a write to \(pool.key) failed"))
        }
    }

    // MARK: Going away

    /// The client shuts down: the streams open finish, then the
    /// connection closes.
    func shutdown() {
        goAway()
    }

    /// No new stream: closes once the open ones have ended.
    private func goAway() {
        guard !state.value.isGoingAway, !state.value.isClosed else { return }
        state.value.isGoingAway = true
        pool.goingAway(self)
        closeIfDone()
    }

    /// Going away with no stream open: says goodbye (GOAWAY `NO_ERROR`)
    /// and closes once it is written.
    func closeIfDone() {
        guard state.value.isGoingAway, state.value.streams.isEmpty, let session = state.value.session else { return }
        session.terminate(.noError)
        flush()
    }

    /// No stream is open: after `idleTimeout`, the connection goes.
    func becameIdle() {
        guard takesStreams, state.value.idleTimer == nil else { return }
        let timeout = pool.configuration.idleTimeout
        state.value.idleTimer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
            state.value.idleTimer = nil
            if state.value.streams.isEmpty { goAway() }
            return Disposables.create()
        }
    }

    private func cancelIdleTimer() {
        let timer = state.value.idleTimer
        state.value.idleTimer = nil
        timer?.dispose()
    }

    // MARK: Closing

    /// Closes the connection now and takes it out of its pool: every
    /// exchange it carries ends with `error` (one whose response had not
    /// begun goes back to the pool once, when it may be sent again).
    func close(_ error: any Error) {
        guard !state.value.isClosed else { return }
        state.value.isClosed = true
        let session = state.value.session
        let streams = state.value.streams
        state.value.streams = [:]
        if let session {
            for id in streams.keys { session.detach(from: id) }
        }
        state.value.session = nil
        cancelIdleTimer()
        output.stop()
        writeWatcher.watch(for: nil)
        if !state.value.inputEnded { stream.endReading(self) }
        stream.close(.now)
        // Closed before the server's SETTINGS: the connect failed.
        pool.removed(self, failure: state.value.hasPeerSettings ? nil : error)
        for open in streams.values.sorted(by: { $0.id < $1.id }) {
            ended(open, error: error, retrying: true)
        }
    }
}
