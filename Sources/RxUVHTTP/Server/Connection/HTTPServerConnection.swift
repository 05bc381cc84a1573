import HTTPTypes
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// One connection's HTTP/1.1 exchanges: cuts requests from the stream's
/// bytes (`HTTPRequestDecoder`), calls the handler for one request at a
/// time, writes its response, and holds the pipelined requests behind it
/// (reading stops while any wait) until it is answered, so responses go
/// out in order. Requests a read carries that are answered while it is
/// handled go out as one write (the stream's coalescing). Ends (the
/// `Completable` of `serveHTTP` completes, and the server closes the
/// stream after its writes) after a response with `Connection: close`, at
/// the peer's end of input with nothing left to answer, on a malformed
/// request (after its 4xx), at the idle or head timeout, or on a drain;
/// after a `101 Switching Protocols`, when the upgrade's protocol ends
/// (`HTTPServerConnection+Upgrade`).
///
/// What changes is in `state` (`HTTPServerConnectionState`), on the loop
/// thread; `life`'s disposal, the handler's answers and write failures may
/// come from any thread and enter the loop.
// @unchecked Sendable: every mutable field is in `state`, a `LoopBound`;
// the rest are constants of Sendable types, but for the two
// `SingleAssignmentDisposable`s (thread-safe) and the stream, whose face
// is Sendable.
final class HTTPServerConnection<Connection: ByteStream>: HTTPBodyConnection, HTTPServerEvents, @unchecked Sendable {
    let stream: Connection
    let loop: Loop
    let quiesce: Observable<Void>
    /// The server's name, for reports.
    let server: String
    let options: HTTPServerOptions
    let handler: HTTPHandler
    let encoder = HTTPResponseEncoder()
    /// The head and idle timeouts as the loop's intervals, converted once.
    let headTimeout: RxTimeInterval?
    let idleTimeout: RxTimeInterval?
    let state: LoopBound<HTTPServerConnectionState>
    let reading = SingleAssignmentDisposable()
    let quiescing = SingleAssignmentDisposable()
    /// The protocol the connection switched to, once it has.
    let upgraded = SingleAssignmentDisposable()
    /// What every write of this connection reports to: one observer for
    /// all of them, told of the connection when it starts.
    let writeWatcher: HTTPWriteWatcher

    init(_ served: ServedConnection<Connection>, options: HTTPServerOptions, handler: @escaping HTTPHandler) {
        self.stream = served.connection
        self.loop = served.loop
        self.quiesce = served.quiesce
        self.server = served.server
        self.options = options
        self.handler = handler
        self.headTimeout = options.headTimeout > .zero ? RxTimeInterval(options.headTimeout) : nil
        self.idleTimeout = options.idleTimeout > .zero ? RxTimeInterval(options.idleTimeout) : nil
        self.state = LoopBound(HTTPServerConnectionState(), loop: served.loop)
        self.writeWatcher = HTTPWriteWatcher(loop: served.loop)
    }

    /// The connection's life: starts reading when subscribed, completes
    /// when the connection should close. Disposing stops it.
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

    /// A request is in hand. (Its fields are read one by one: a method of
    /// the exchange's state would take a copy of all of it.)
    var hasRequest: Bool {
        state.value.exchange.answer != nil
    }

    /// The request in hand has arrived whole (or has no body). (The body is
    /// read out of the state before it is asked: a call made while the state
    /// is being read would make the read copy all of it.)
    var isReceived: Bool {
        guard hasRequest else { return false }
        let body = state.value.exchange.body
        return body?.isFinished ?? true
    }

    // MARK: Reading

    func start(_ observer: @escaping (CompletableEvent) -> Void) {
        guard state.value.life == .idle else { return }
        state.value.life = .serving
        state.value.observer = observer
        writeWatcher.watch(for: self)
        armTimer(.head)
        let decoder = HTTPRequestDecoder(limits: options.limits)
        // Both observers hold the connection strongly, as everything the
        // connection starts does (its timer, the drain's signal, a file
        // body's write, the writes' watcher until `finish` lets it go):
        // `finish` disposes them all, which ends the cycles.
        reading.setDisposable(
            stream.receivedData
                .do(onNext: { [self] _ in bytesArrived() })
                .decodeFrames(decoder)
                .subscribe(HTTPPartObserver(self)))
        quiescing.setDisposable(
            quiesce.subscribe(onNext: { [self] in drainStarted() }))
    }

    /// An input goes to the request whose body is arriving, or starts the
    /// next request when none is being answered; otherwise it waits.
    func input(_ input: HTTPServerInput) {
        guard !state.value.isClosed else { return }
        if state.value.isDrainingBacklog || !state.value.backlog.isEmpty || isReceived {
            state.value.backlog.append(input)
            if !state.value.holdsForBacklog {
                state.value.holdsForBacklog = true
                updateHold()
            }
            return
        }
        handle(input)
    }

    func handle(_ input: HTTPServerInput) {
        switch input {
        case .part(.head(let head)):
            begin(head)
        case .part(.body(let bytes)):
            let body = state.value.exchange.body
            body?.receive(bytes)
        case .part(.end(let last, let trailers)):
            guard hasRequest, let body = state.value.exchange.body else { return }
            body.end(last: last, trailers: trailers)
            if state.value.exchange.answered { complete() }
        case .failed(let error):
            inputFailed(error)
        case .ended:
            state.value.inputEnded = true
            let body = state.value.exchange.body
            if let body, !body.isFinished {
                body.fail(FramingError.truncatedFrame(bytesLeft: 0))
                finish()
            } else if !hasRequest {
                finish()
            }
        }
    }

    /// The decoder or the read failed.
    func inputFailed(_ error: any Error) {
        guard let parseError = error as? HTTPParseError else {
            // A reset, a read error, a request cut short by the peer's
            // end: nobody is left to answer.
            let body = state.value.exchange.body
            body?.fail(error)
            finish()
            return
        }
        state.value.acceptsNoMore = true
        if hasRequest {
            let body = state.value.exchange.body
            guard !state.value.exchange.started else {
                // The answer has begun: the connection can only end.
                body?.fail(error)
                state.value.exchange.keepAlive = false
                if state.value.exchange.answered { finish() }
                return
            }
            // The refusal answers in the handler's place.
            stopWork()
            body?.fail(error)
        }
        refuse(parseError.status, parseError.reason)
    }

    /// Answers `status` with `reason` in place of a request, then closes.
    func refuse(_ status: HTTPResponse.Status, _ reason: String) {
        state.value.acceptsNoMore = true
        // A GET, so the refusal carries its body.
        state.value.exchange.begin(
            answer: HTTPExchange(connection: nil), method: .get, minorVersion: 1, expectsContinue: false, body: nil, keepAlive: false,
            began: nil)
        respond(.text(reason + "\n", status: status))
    }

    /// Bytes arrived: the first of a request starts its head timer; any
    /// while a request that asks to upgrade waits for its answer are noted
    /// (they cannot be the new protocol's: HTTP reads them).
    func bytesArrived() {
        if hasRequest {
            if state.value.exchange.asksToUpgrade { state.value.exchange.bytesAfterUpgradeRequest = true }
            return
        }
        guard state.value.deadline.awaitsFirstByte else { return }
        armTimer(.head)
    }

    // MARK: Requests

    func begin(_ head: HTTPRequestHead) {
        state.value.deadline.disarm()
        state.value.requestCount += 1
        let keepAlive = head.keepAlive && state.value.requestCount < options.maxRequestsPerConnection
        let declared: Int? =
            switch head.body {
            case .none: 0
            case .length(let length): length
            case .chunked: nil
            }
        let body = head.body == .none ? nil : HTTPBodySource(loop: loop, declaredLength: declared, connection: self, bufferLimit: options.bodyBufferSize)
        let answer: HTTPExchange
        if isKnownUniquelyReferenced(&state.value.spareExchange), let spare = state.value.spareExchange {
            answer = spare
        } else {
            answer = HTTPExchange(connection: self)
            state.value.spareExchange = answer
        }
        let trace = options.tracing.map {
            HTTPServerTrace(
                head.request, protocolVersion: head.minorVersion == 0 ? "1.0" : "1.1", peer: peer, tracer: $0.tracer)
        }
        state.value.exchange.begin(
            answer: answer, method: head.request.method, minorVersion: head.minorVersion, expectsContinue: head.expectsContinue,
            body: body, keepAlive: keepAlive, began: options.onResponse != nil ? Loop.monotonicNanoseconds : nil,
            asksToUpgrade: head.asksToUpgrade, bytesFollowed: head.followedByBytes, trace: trace)
        let request = HTTPServerRequest(
            head: head.request, minorVersion: head.minorVersion, body: body.map { HTTPRequestBody(source: $0) } ?? .none,
            parameters: [:], peer: peer, loop: loop, asksToUpgrade: head.asksToUpgrade, trace: trace)
        let subscription = handler(request).asObservable().subscribe(answer)
        if state.value.exchange.answer === answer, !state.value.exchange.started {
            state.value.exchange.work = subscription
        }
    }

    /// The handler's answer, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for answer: HTTPExchange) {
        // Most answers come on the loop thread, during the handler's call,
        // and are taken at once. A generic hand-off in the loop layer (an
        // associated value type, taken through a witness) cost about 200
        // instructions a request more than this check, measured.
        guard loop.isOnLoopThread else {
            // The result and the exchange are touched on the loop thread only.
            let sent = UncheckedSendable((result, answer))
            loop.enter { [self] in answered(sent.value.0, for: sent.value.1) }
            return
        }
        guard !state.value.isClosed, state.value.exchange.answer === answer, !state.value.exchange.started else { return }
        if case .failure(let error) = result {
            state.value.exchange.trace?.failed(error)
        }
        switch result {
        case .success(let response):
            respond(response)
        case .failure(let error as HTTPParseError):
            // A body the handler read was malformed: the framing is lost.
            state.value.acceptsNoMore = true
            respond(.text(error.reason + "\n", status: error.status))
        case .failure(let error as HTTPError):
            respond(.text((error.message ?? error.status.reasonPhrase) + "\n", status: error.status))
        case .failure(let error):
            report(error, ReportContext(loop: loop, server: server, peer: peer))
            respond(.text("Internal Server Error\n", status: .internalServerError))
        }
    }

    /// The handler's `Single` (or a streamed body) of the request in hand,
    /// disposed.
    func stopWork() {
        let work = state.value.exchange.work
        state.value.exchange.work = nil
        work?.dispose()
    }

    func complete() {
        let keepAlive = state.value.exchange.keepAlive
        state.value.exchange.end()
        guard keepAlive, !state.value.acceptsNoMore else {
            finish()
            return
        }
        drainBacklog()
        guard !state.value.isClosed, !hasRequest else { return }
        if state.value.inputEnded {
            finish()
        } else {
            armTimer(.idle)
        }
    }

    /// Hands the waiting inputs on until one request is being answered
    /// again or none is left.
    func drainBacklog() {
        guard !state.value.isDrainingBacklog else { return }
        state.value.isDrainingBacklog = true
        while !state.value.isClosed, !isReceived, let next = state.value.backlog.next() {
            handle(next)
        }
        state.value.isDrainingBacklog = false
        if state.value.backlog.isEmpty, state.value.holdsForBacklog {
            state.value.holdsForBacklog = false
            updateHold()
        }
    }

    func drainStarted() {
        state.value.acceptsNoMore = true
        if !hasRequest { finish() }
    }

    // MARK: Body

    func body(_ body: HTTPBodySource, holds held: Bool) {
        state.value.holdsForBody = held
        updateHold()
    }

    func bodyWanted(_ body: HTTPBodySource) {
        guard hasRequest, state.value.exchange.body === body, state.value.exchange.expectsContinue,
            !state.value.exchange.continueSent, !state.value.exchange.started
        else { return }
        state.value.exchange.continueSent = true
        write([HTTPServerConnectionConstants.continueLine])
    }

    /// The handler left the body: what still arrives is read and dropped,
    /// so that the next request's head can be found.
    func bodyAbandoned(_ body: HTTPBodySource) {}

    func updateHold() {
        let held = state.value.holdsForBacklog || state.value.holdsForBody
        guard held != state.value.isHoldingReading, !state.value.isClosed else { return }
        state.value.isHoldingReading = held
        stream.holdReading(held)
    }

    // MARK: Ending

    /// Ends the connection: stops reading, timers and the exchange's work;
    /// the server then closes the stream after its writes.
    func finish(notify: Bool = true) {
        guard state.value.life != .closed else { return }
        state.value.life = .closed
        let observer = state.value.observer
        state.value.observer = nil
        state.value.deadline.cancel()
        reading.dispose()
        quiescing.dispose()
        upgraded.dispose()
        if hasRequest {
            if !state.value.exchange.answered {
                state.value.exchange.trace?.cutShort()
            }
            let body = state.value.exchange.body
            stopWork()
            body?.fail(UVError(code: .cancelled, operation: "HTTP request body"))
        }
        state.value.exchange.end()
        state.value.spareExchange = nil
        state.value.spareHead.release()
        state.value.backlog.removeAll()
        writeWatcher.watch(for: nil)
        if notify { observer?(.completed) }
    }

    // MARK: Writing

    func encode(_ part: HTTPResponsePart, into buffers: inout [ByteBuffer]) {
        // The encoder throws for nothing it is given here.
        try? encoder.encode(part, into: &buffers)
    }

    func write(_ buffer: ByteBuffer) {
        _ = stream.startWrite(.one(buffer), notifying: writeWatcher)
    }

    func write(_ buffers: [ByteBuffer]) {
        _ = stream.startWrite(buffers.count == 1 ? .one(buffers[0]) : .many(buffers), notifying: writeWatcher)
    }

    /// A write failed, on any thread: the read side sees the same failure;
    /// stop answering.
    func writeFailed() {
        loop.enter { [self] in finish() }
    }
}

/// What every `HTTPServerConnection` shares.
private enum HTTPServerConnectionConstants {
    static let continueLine = ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")
}
