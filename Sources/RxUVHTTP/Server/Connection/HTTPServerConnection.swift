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
/// request (after its 4xx), at the idle or head timeout, or on a drain.
///
/// What changes is in `state` (`HTTPServerConnectionState`), on the loop
/// thread; `life`'s disposal, the handler's answers and write failures may
/// come from any thread and enter the loop.
// @unchecked Sendable: every mutable field is in `state`, a `LoopBound`;
// the rest are constants of Sendable types, but for the two
// `SingleAssignmentDisposable`s (thread-safe) and the stream, whose face
// is Sendable.
final class HTTPServerConnection<Connection: ByteStream>: HTTPBodyConnection, HTTPServerEvents, @unchecked Sendable {
    private let stream: Connection
    private let loop: Loop
    private let quiesce: Observable<Void>
    private let options: HTTPServerOptions
    private let handler: HTTPHandler
    private let encoder = HTTPResponseEncoder()
    /// The head and idle timeouts as the loop's intervals, converted once.
    private let headTimeout: RxTimeInterval?
    private let idleTimeout: RxTimeInterval?
    private let state: LoopBound<HTTPServerConnectionState>
    private let reading = SingleAssignmentDisposable()
    private let quiescing = SingleAssignmentDisposable()
    /// What every write of this connection reports to: one observer for
    /// all of them, told of the connection when it starts.
    private let writeWatcher: HTTPWriteWatcher

    init(_ served: ServedConnection<Connection>, options: HTTPServerOptions, handler: @escaping HTTPHandler) {
        self.stream = served.connection
        self.loop = served.loop
        self.quiesce = served.quiesce
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
        Completable.create { [self] observer in
            let stopped = Disposables.create { [self] in loop.enter { self.finish(notify: false) } }
            // The observer is called on the loop thread only, once handed over.
            let started = UncheckedSendable(observer)
            loop.enter { [self] in
                guard !stopped.isDisposed else { return }
                start(started.value)
            }
            return stopped
        }
    }

    /// The peer's description, asked for once.
    private var peer: String? {
        if let peer = state.value.peer { return peer }
        let peer = stream.peerDescription
        state.value.peer = peer
        return peer
    }

    /// A request is in hand. (Its fields are read one by one: a method of
    /// the exchange's state would take a copy of all of it.)
    private var hasRequest: Bool {
        state.value.exchange.answer != nil
    }

    /// The request in hand has arrived whole (or has no body). (The body is
    /// read out of the state before it is asked: a call made while the state
    /// is being read would make the read copy all of it.)
    private var isReceived: Bool {
        guard hasRequest else { return false }
        let body = state.value.exchange.body
        return body?.isFinished ?? true
    }

    // MARK: Reading

    private func start(_ observer: @escaping (CompletableEvent) -> Void) {
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

    private func handle(_ input: HTTPServerInput) {
        switch input {
        case .part(.head(let head)):
            begin(head)
        case .part(.body(let bytes)):
            let body = state.value.exchange.body
            body?.receive(bytes)
        case .part(.end(let last, _)):
            guard hasRequest, let body = state.value.exchange.body else { return }
            body.end(last: last)
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
    private func inputFailed(_ error: any Error) {
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
    private func refuse(_ status: HTTPResponse.Status, _ reason: String) {
        state.value.acceptsNoMore = true
        // A GET, so the refusal carries its body.
        state.value.exchange.begin(
            answer: HTTPExchange(connection: nil), method: .get, minorVersion: 1, expectsContinue: false, body: nil, keepAlive: false,
            began: nil)
        respond(.text(reason + "\n", status: status))
    }

    /// Bytes arrived: the first of a request starts its head timer.
    private func bytesArrived() {
        guard state.value.deadline.awaitsFirstByte, !hasRequest else { return }
        armTimer(.head)
    }

    // MARK: Requests

    private func begin(_ head: HTTPRequestHead) {
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
        state.value.exchange.begin(
            answer: answer, method: head.request.method, minorVersion: head.minorVersion, expectsContinue: head.expectsContinue,
            body: body, keepAlive: keepAlive, began: options.onResponse != nil ? Loop.monotonicNanoseconds : nil)
        let request = HTTPServerRequest(
            head: head.request, minorVersion: head.minorVersion, body: body.map { HTTPRequestBody(source: $0) } ?? .none,
            parameters: [:], peer: peer, loop: loop)
        let subscription = handler(request).asObservable().subscribe(answer)
        if state.value.exchange.answer === answer, !state.value.exchange.started {
            state.value.exchange.work = subscription
        }
    }

    /// The handler's answer, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for answer: HTTPExchange) {
        // Most answers come on the loop thread, during the handler's call:
        // handled at once, with no closure made for the door.
        guard loop.isOnLoopThread else {
            // The result and the exchange are touched on the loop thread only.
            let sent = UncheckedSendable((result, answer))
            loop.enter { [self] in answered(sent.value.0, for: sent.value.1) }
            return
        }
        guard !state.value.isClosed, state.value.exchange.answer === answer, !state.value.exchange.started else { return }
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
            report(error, ReportContext(loop: loop, server: "HTTP", peer: peer))
            respond(.text("Internal Server Error\n", status: .internalServerError))
        }
    }

    /// The handler's `Single` (or a streamed body) of the request in hand,
    /// disposed.
    private func stopWork() {
        let work = state.value.exchange.work
        state.value.exchange.work = nil
        work?.dispose()
    }

    // MARK: Responses

    /// The largest body copied into its head's buffer (one write, no array
    /// of buffers); a larger one is written beside the head.
    private static var inlineBodyLimit: Int { 4096 }

    /// Writes `response` for the request in hand.
    private func respond(_ response: HTTPServerResponse) {
        guard let answer = state.value.exchange.answer else { return }
        state.value.exchange.started = true
        if let body = state.value.exchange.body, !body.isFinished {
            if state.value.exchange.expectsContinue, !state.value.exchange.continueSent {
                // The client waits for `100 Continue` and will not get it:
                // its body would be taken for the next request.
                state.value.exchange.keepAlive = false
            } else if !body.isWanted {
                body.discardRest()
            }
        }
        let method = state.value.exchange.method
        if let onResponse = options.onResponse {
            let nanoseconds = state.value.exchange.began.map { Loop.monotonicNanoseconds - $0 } ?? 0
            onResponse(HTTPResponseRecord(method: method, status: response.status, nanoseconds: nanoseconds))
        }
        let framing = HTTPResponseFraming(response: response, method: method, minorVersion: state.value.exchange.minorVersion)
        if framing.closeDelimited || state.value.acceptsNoMore { state.value.exchange.keepAlive = false }
        let keepAlive = state.value.exchange.keepAlive
        if !keepAlive { state.value.acceptsNoMore = true }
        let date = state.value.dates.value(secondsSince1970: Int64(time(nil)))
        // A small body travels in the head's buffer.
        var inline: ByteBuffer?
        if framing.sendsBody, case .bytes(let bytes) = response.body.content, bytes.count <= Self.inlineBodyLimit {
            inline = bytes
        }
        let headBytes = HTTPResponseEncoder.head(
            response.headLines, body: framing.head, keepAlive: keepAlive, date: date, server: options.serverName, content: inline,
            reusing: &state.value.spareHead)
        guard framing.sendsBody, inline == nil else {
            write(headBytes)
            finished(answer)
            return
        }
        switch response.body.content {
        case .bytes(let bytes):
            var buffers = [headBytes]
            encode(.body(bytes), into: &buffers)
            write(buffers)
            finished(answer)
        case .file(let path, let range):
            write(headBytes)
            send(stream.write(fileAt: path, range: range), for: answer)
        case .openFile(let file, let range):
            write(headBytes)
            send(stream.write(file, range: range), for: answer)
        case .stream(let source, let length):
            write(headBytes)
            let work = source.subscribe(
                HTTPBodyWriter(connection: self, loop: loop, answer: answer, chunked: framing.chunked, length: length))
            setWork(work, for: answer)
        }
    }

    /// The work of `answer`'s request is `work`, if that request is still
    /// in hand (else it is over, and so is the work).
    private func setWork(_ work: Disposable, for answer: HTTPExchange) {
        if state.value.exchange.answer === answer, !state.value.exchange.answered {
            state.value.exchange.work = work
        }
    }

    /// Sends a file's body; the exchange ends with it.
    private func send(_ body: Completable, for answer: HTTPExchange) {
        let work = body.subscribe(
            onCompleted: { [self] in finished(answer) },
            onError: { [self] error in responseFailed(error) })
        setWork(work, for: answer)
    }

    /// Whether `answer`'s request is in hand and its response still going
    /// out: what a streamed body's writer checks before each part.
    func isAnswering(_ answer: HTTPExchange) -> Bool {
        !state.value.isClosed && state.value.exchange.answer === answer && !state.value.exchange.answered
    }

    /// A body failed after its head went out: the response can only be cut
    /// short, by closing.
    func responseFailed(_ error: any Error) {
        guard !state.value.isClosed else { return }
        report(error, ReportContext(loop: loop, server: "HTTP", peer: peer))
        finish()
    }

    /// The whole response to `answer`'s request is handed to the stream.
    func finished(_ answer: HTTPExchange) {
        guard isAnswering(answer) else { return }
        state.value.exchange.answered = true
        if isReceived {
            complete()
        } else if !state.value.exchange.keepAlive {
            finish()
        }
        // Otherwise the rest of the body is read (and dropped) first.
    }

    /// The exchange in hand is over: the next request, if any.
    private func complete() {
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
    private func drainBacklog() {
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

    private func drainStarted() {
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

    private func updateHold() {
        let held = state.value.holdsForBacklog || state.value.holdsForBody
        guard held != state.value.isHoldingReading, !state.value.isClosed else { return }
        state.value.isHoldingReading = held
        stream.holdReading(held)
    }

    // MARK: Timers

    /// The head timer (from a request's first byte, or the connection's
    /// start) or the idle timer (between requests).
    private func armTimer(_ kind: HTTPDeadline.Kind) {
        let now = loop.now
        if let interval = state.value.deadline.arm(kind, after: kind == .head ? headTimeout : idleTimeout, now: now) {
            schedule(after: interval)
        }
    }

    private func schedule(after interval: RxTimeInterval) {
        let disposable = loop.scheduleRelative((), dueTime: interval) { [self] _ in
            timerFired()
            return Disposables.create()
        }
        state.value.deadline.scheduled(disposable, at: loop.now + interval)
    }

    private func timerFired() {
        guard !state.value.isClosed else { return }
        switch state.value.deadline.fired(now: loop.now) {
        case .none:
            break
        case .later(let interval):
            schedule(after: interval)
        case .expired(let kind):
            timedOut(kind)
        }
    }

    private func timedOut(_ kind: HTTPDeadline.Kind) {
        guard !state.value.isClosed, !hasRequest else { return }
        switch kind {
        case .idle: finish()
        case .head: refuse(.requestTimeout, "Request Timeout")
        }
    }

    // MARK: Ending

    /// Ends the connection: stops reading, timers and the exchange's work;
    /// the server then closes the stream after its writes.
    private func finish(notify: Bool = true) {
        guard state.value.life != .closed else { return }
        state.value.life = .closed
        let observer = state.value.observer
        state.value.observer = nil
        state.value.deadline.cancel()
        reading.dispose()
        quiescing.dispose()
        if hasRequest {
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

    private func write(_ buffer: ByteBuffer) {
        _ = stream.write(buffer, notifying: writeWatcher)
    }

    func write(_ buffers: [ByteBuffer]) {
        watch(buffers.count == 1 ? stream.write(buffers[0]) : stream.write(buffers))
    }

    /// Every write reports to the connection's one watcher.
    private func watch(_ written: Completable) {
        _ = written.asObservable().subscribe(writeWatcher)
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
