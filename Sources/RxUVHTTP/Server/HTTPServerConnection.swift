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
/// Loop-thread state; `stop` and handler results may come from any
/// thread and hop to the loop.
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

    // Loop-thread state, touched by one thread with no overlapping
    // access: no run-time exclusivity checks (`@exclusivity(unchecked)`),
    // which cost a request about 600 instructions.
    @exclusivity(unchecked) private var observer: ((CompletableEvent) -> Void)?
    @exclusivity(unchecked) private var isFinished = false
    private let reading = SingleAssignmentDisposable()
    private let quiescing = SingleAssignmentDisposable()
    /// The head or idle deadline (loop clock), `nil` when none runs; the
    /// one timer behind it is armed once and moved only when it fires
    /// early, so a request costs no timer call.
    @exclusivity(unchecked) private var deadline: (at: RxTime, head: Bool)?
    @exclusivity(unchecked) private var timer: (disposable: Disposable, due: RxTime)?
    /// The next request's first byte has not arrived (the idle timer runs).
    @exclusivity(unchecked) private var awaitsFirstByte = false
    @exclusivity(unchecked) private var exchange: HTTPExchange?
    /// The last exchange made for a request, taken again for the next one
    /// once nothing else holds it (its handler's `Single` and writes are
    /// done with it): a request then allocates no exchange. Let go by
    /// `finish`, which ends the cycle it makes with the connection.
    @exclusivity(unchecked) private var spareExchange: HTTPExchange?
    /// The storage of the last response head, for the next one once the
    /// kernel has taken it (`ByteBuffer.SpareStorage`).
    @exclusivity(unchecked) private var spareHead = ByteBuffer.SpareStorage(keepLimit: 4096)
    /// HTTPServerInputs for the requests behind the one being answered.
    @exclusivity(unchecked) private var backlog: [HTTPServerInput] = []
    @exclusivity(unchecked) private var backlogStart = 0
    @exclusivity(unchecked) private var isDraining = false
    @exclusivity(unchecked) private var holdsForBacklog = false
    @exclusivity(unchecked) private var holdsForBody = false
    @exclusivity(unchecked) private var isHoldingReading = false
    @exclusivity(unchecked) private var requestCount = 0
    /// No request after the one being answered (a drain, `Connection:
    /// close`, the request cap, a malformed request).
    @exclusivity(unchecked) private var acceptsNoMore = false
    @exclusivity(unchecked) private var inputEnded = false
    @exclusivity(unchecked) private var dates = HTTPDateCache()
    /// The peer's description, asked for once.
    private lazy var peer = stream.peerDescription
    /// What every write of this connection reports to: one observer for
    /// all of them, told of the connection when it starts.
    private let writeWatcher = HTTPWriteWatcher()

    init(_ served: ServedConnection<Connection>, options: HTTPServerOptions, handler: @escaping HTTPHandler) {
        self.stream = served.connection
        self.loop = served.loop
        self.quiesce = served.quiesce
        self.options = options
        self.handler = handler
        self.headTimeout = options.headTimeout > .zero ? RxTimeInterval(options.headTimeout) : nil
        self.idleTimeout = options.idleTimeout > .zero ? RxTimeInterval(options.idleTimeout) : nil
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

    // MARK: Reading

    private func start(_ observer: @escaping (CompletableEvent) -> Void) {
        self.observer = observer
        writeWatcher.connection = self
        armTimer(head: true)
        let decoder = HTTPRequestDecoder(limits: options.limits)
        // Both observers hold the connection strongly, as everything the
        // connection starts does (its timer, the drain's signal, a file
        // body's write, the writes' watcher until `finish` lets it go):
        // no weak reference to it, which would give it a side table and
        // send every retain and release of it down the slow path (with the
        // weak loads, about 700 instructions a request). `finish` disposes
        // them all.
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
        guard !isFinished else { return }
        if isDraining || backlogStart < backlog.count || (exchange.map { $0.isReceived } ?? false) {
            backlog.append(input)
            if !holdsForBacklog {
                holdsForBacklog = true
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
            exchange?.body?.receive(bytes)
        case .part(.end(let last, _)):
            guard let exchange, let body = exchange.body else { return }
            body.end(last: last)
            if exchange.answered { complete(exchange) }
        case .failed(let error):
            inputFailed(error)
        case .ended:
            inputEnded = true
            if let body = exchange?.body, !body.isFinished {
                body.fail(FramingError.truncatedFrame(bytesLeft: 0))
                finish()
            } else if exchange == nil {
                finish()
            }
        }
    }

    /// The decoder or the read failed.
    private func inputFailed(_ error: any Error) {
        guard let parseError = error as? HTTPParseError else {
            // A reset, a read error, a request cut short by the peer's
            // end: nobody is left to answer.
            exchange?.body?.fail(error)
            finish()
            return
        }
        acceptsNoMore = true
        if let exchange {
            guard !exchange.started else {
                // The answer has begun: the connection can only end.
                exchange.body?.fail(error)
                exchange.keepAlive = false
                if exchange.answered { finish() }
                return
            }
            // The refusal answers in the handler's place.
            exchange.stopWork()
            exchange.body?.fail(error)
        }
        refuse(parseError.status, parseError.reason)
    }

    /// Answers `status` with `reason` in place of a request, then closes.
    private func refuse(_ status: HTTPResponse.Status, _ reason: String) {
        acceptsNoMore = true
        // A GET, so the refusal carries its body.
        let refused = HTTPExchange(method: .get, minorVersion: 1, expectsContinue: false, body: nil, keepAlive: false)
        exchange = refused
        respond(.text(reason + "\n", status: status), to: refused)
    }

    /// Bytes arrived: the first of a request starts its head timer.
    private func bytesArrived() {
        guard awaitsFirstByte, exchange == nil else { return }
        armTimer(head: true)
    }

    // MARK: Requests

    private func begin(_ head: HTTPRequestHead) {
        disarmTimer()
        awaitsFirstByte = false
        requestCount += 1
        let keepAlive = head.keepAlive && requestCount < options.maxRequestsPerConnection
        let declared: Int? =
            switch head.body {
            case .none: 0
            case .length(let length): length
            case .chunked: nil
            }
        let body = head.body == .none ? nil : HTTPBodySource(loop: loop, declaredLength: declared, connection: self, bufferLimit: options.bodyBufferSize)
        let exchange: HTTPExchange
        if isKnownUniquelyReferenced(&spareExchange), let spare = spareExchange {
            spare.renew(
                method: head.request.method, minorVersion: head.minorVersion, expectsContinue: head.expectsContinue, body: body,
                keepAlive: keepAlive)
            exchange = spare
        } else {
            exchange = HTTPExchange(
                method: head.request.method, minorVersion: head.minorVersion, expectsContinue: head.expectsContinue, body: body,
                keepAlive: keepAlive, connection: self)
            spareExchange = exchange
        }
        if options.onResponse != nil {
            exchange.began = Loop.monotonicNanoseconds
        }
        self.exchange = exchange
        let request = HTTPServerRequest(
            head: head.request, minorVersion: head.minorVersion, body: body.map { HTTPRequestBody(source: $0) } ?? .none,
            parameters: [:], peer: peer, loop: loop)
        let answer = handler(request)
        let subscription = answer.asObservable().subscribe(exchange)
        if !exchange.started {
            exchange.work = subscription
        }
    }

    /// The handler's answer, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for exchange: HTTPExchange) {
        // Most answers come on the loop thread, during the handler's call:
        // handled at once, with no closure made for the door.
        guard loop.isOnLoopThread else {
            // The result and the exchange are touched on the loop thread only.
            let sent = UncheckedSendable((result, exchange))
            loop.enter { [self] in answered(sent.value.0, for: sent.value.1) }
            return
        }
        guard !isFinished, exchange === self.exchange, !exchange.started else { return }
        switch result {
        case .success(let response):
            respond(response, to: exchange)
        case .failure(let error as HTTPParseError):
            // A body the handler read was malformed: the framing is lost.
            acceptsNoMore = true
            respond(.text(error.reason + "\n", status: error.status), to: exchange)
        case .failure(let error as HTTPError):
            respond(.text((error.message ?? error.status.reasonPhrase) + "\n", status: error.status), to: exchange)
        case .failure(let error):
            report(error, ReportContext(loop: loop, server: "HTTP", peer: peer))
            respond(.text("Internal Server Error\n", status: .internalServerError), to: exchange)
        }
    }

    // MARK: Responses

    /// The largest body copied into its head's buffer (one write, no array
    /// of buffers); a larger one is written beside the head. A copy of 4 KiB
    /// costs less than the array and the vectored write it saves.
    private static var inlineBodyLimit: Int { 4096 }

    private func respond(_ response: HTTPServerResponse, to exchange: HTTPExchange) {
        exchange.started = true
        if let body = exchange.body, !body.isFinished {
            if exchange.expectsContinue, !exchange.continueSent {
                // The client waits for `100 Continue` and will not get it:
                // its body would be taken for the next request.
                exchange.keepAlive = false
            } else if !body.isWanted {
                body.discardRest()
            }
        }
        if acceptsNoMore { exchange.keepAlive = false }
        let responseStatus = response.status
        let status = responseStatus.code
        if let onResponse = options.onResponse {
            let nanoseconds = exchange.began.map { Loop.monotonicNanoseconds - $0 } ?? 0
            onResponse(HTTPResponseRecord(method: exchange.method, status: responseStatus, nanoseconds: nanoseconds))
        }
        let method = exchange.method
        let sendsBody = method != .head && status >= 200 && status != 204 && status != 304
        let framing: HTTPResponsePart.BodyFraming
        var closeDelimited = false
        if status < 200 || status == 204 || status == 304 {
            framing = .none
        } else if let length = response.body.length {
            framing = .length(length)
        } else if method == .head {
            framing = .none
        } else if exchange.minorVersion == 0 {
            // An HTTP/1.0 client knows no chunks: the close ends the body.
            framing = .none
            closeDelimited = true
            exchange.keepAlive = false
        } else {
            framing = .chunked
        }
        if !exchange.keepAlive { acceptsNoMore = true }
        let date = dates.value(secondsSince1970: Int64(time(nil)))
        // A small body travels in the head's buffer.
        var inline: ByteBuffer?
        if sendsBody, case .bytes(let bytes) = response.body.content, bytes.count <= Self.inlineBodyLimit {
            inline = bytes
        }
        let headBytes = HTTPResponseEncoder.head(
            response.headLines, body: framing, keepAlive: exchange.keepAlive, date: date, server: options.serverName, content: inline,
            reusing: &spareHead)
        guard sendsBody, inline == nil else {
            write(headBytes)
            finished(exchange)
            return
        }
        switch response.body.content {
        case .bytes(let bytes):
            var buffers = [headBytes]
            encode(.body(bytes), into: &buffers)
            write(buffers)
            finished(exchange)
        case .file(let path, let range):
            write(headBytes)
            send(stream.write(fileAt: path, range: range), for: exchange)
        case .openFile(let file, let range):
            write(headBytes)
            send(stream.write(file, range: range), for: exchange)
        case .stream(let source, let length):
            write(headBytes)
            exchange.work = source.subscribe(
                BodyWriter(connection: self, exchange: exchange, chunked: framing == .chunked && !closeDelimited, length: length))
        }
    }

    /// Sends a file's body; the exchange ends with it.
    private func send(_ body: Completable, for exchange: HTTPExchange) {
        exchange.work = body.subscribe(
            onCompleted: { [self] in finished(exchange) },
            onError: { [self] error in responseFailed(error) })
    }

    /// Writes a streamed body as it comes, counting it against its length.
    // @unchecked Sendable: its events are handled on the loop thread.
    private struct BodyWriter: ObserverType, @unchecked Sendable {
        let connection: HTTPServerConnection
        let exchange: HTTPExchange
        let chunked: Bool
        let length: Int?
        private let sent = Counter()

        init(connection: HTTPServerConnection, exchange: HTTPExchange, chunked: Bool, length: Int?) {
            self.connection = connection
            self.exchange = exchange
            self.chunked = chunked
            self.length = length
        }

        func on(_ event: Event<ByteBuffer>) {
            connection.loop.enter { [self] in
                guard !connection.isFinished, connection.exchange === exchange, !exchange.answered else { return }
                switch event {
                case .next(let bytes):
                    sent.value += bytes.count
                    if let length, sent.value > length {
                        connection.responseFailed(HTTPError(.internalServerError, message: "a streamed body sent more than its \(length) bytes"))
                        return
                    }
                    var buffers: [ByteBuffer] = []
                    connection.encode(chunked ? .chunk(bytes) : .body(bytes), into: &buffers)
                    connection.write(buffers)
                case .error(let error):
                    connection.responseFailed(error)
                case .completed:
                    if let length, sent.value != length {
                        connection.responseFailed(HTTPError(.internalServerError, message: "a streamed body sent \(sent.value) of its \(length) bytes"))
                        return
                    }
                    if chunked {
                        var buffers: [ByteBuffer] = []
                        connection.encode(.lastChunk(trailers: nil), into: &buffers)
                        connection.write(buffers)
                    }
                    connection.finished(exchange)
                }
            }
        }
    }

    /// A body failed after its head went out: the response can only be cut
    /// short, by closing.
    private func responseFailed(_ error: any Error) {
        guard !isFinished else { return }
        report(error, ReportContext(loop: loop, server: "HTTP", peer: peer))
        finish()
    }

    /// The whole response is handed to the stream.
    private func finished(_ exchange: HTTPExchange) {
        guard !isFinished, exchange === self.exchange, !exchange.answered else { return }
        exchange.answered = true
        if exchange.isReceived {
            complete(exchange)
        } else if !exchange.keepAlive {
            finish()
        }
        // Otherwise the rest of the body is read (and dropped) first.
    }

    /// The exchange is over: the next request, if any.
    private func complete(_ exchange: HTTPExchange) {
        self.exchange = nil
        guard exchange.keepAlive, !acceptsNoMore else {
            finish()
            return
        }
        drainBacklog()
        guard !isFinished, self.exchange == nil else { return }
        if inputEnded {
            finish()
        } else {
            armTimer(head: false)
        }
    }

    /// Hands the waiting inputs on until one request is being answered
    /// again or none is left.
    private func drainBacklog() {
        guard !isDraining else { return }
        isDraining = true
        while backlogStart < backlog.count, !isFinished, !(exchange.map { $0.isReceived } ?? false) {
            let next = backlog[backlogStart]
            backlogStart += 1
            handle(next)
        }
        isDraining = false
        if backlogStart == backlog.count {
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
            if holdsForBacklog {
                holdsForBacklog = false
                updateHold()
            }
        }
    }

    private func drainStarted() {
        acceptsNoMore = true
        if exchange == nil { finish() }
    }

    // MARK: Body

    func body(_ body: HTTPBodySource, holds held: Bool) {
        holdsForBody = held
        updateHold()
    }

    func bodyWanted(_ body: HTTPBodySource) {
        guard let exchange, exchange.body === body, exchange.expectsContinue, !exchange.continueSent, !exchange.started else { return }
        exchange.continueSent = true
        write([HTTPServerConnectionConstants.continueLine])
    }

    private func updateHold() {
        let held = holdsForBacklog || holdsForBody
        guard held != isHoldingReading, !isFinished else { return }
        isHoldingReading = held
        stream.holdReading(held)
    }

    // MARK: Timers

    /// The head timer (from a request's first byte, or the connection's
    /// start) or the idle timer (between requests).
    private func armTimer(head: Bool) {
        awaitsFirstByte = !head
        guard let interval = head ? headTimeout : idleTimeout else {
            deadline = nil
            return
        }
        let due = loop.now + interval
        deadline = (due, head)
        // A timer due later (a head timeout under a shorter idle one) is
        // moved; one due sooner fires first and moves itself.
        if let armed = timer?.due, armed <= due { return }
        timer?.disposable.dispose()
        schedule(after: interval)
    }

    /// No deadline until the next `armTimer`: the timer, when it fires,
    /// finds none and stops.
    private func disarmTimer() {
        deadline = nil
    }

    private func schedule(after interval: RxTimeInterval) {
        let disposable = loop.scheduleRelative((), dueTime: interval) { [self] _ in
            timerFired()
            return Disposables.create()
        }
        timer = (disposable, loop.now + interval)
    }

    private func timerFired() {
        timer = nil
        guard !isFinished, let deadline else { return }
        let now = loop.now
        guard now >= deadline.at else {
            schedule(after: deadline.at.timeIntervalSince(now))
            return
        }
        self.deadline = nil
        timedOut(head: deadline.head)
    }

    private func timedOut(head: Bool) {
        guard !isFinished, exchange == nil else { return }
        guard head else {
            finish()
            return
        }
        refuse(.requestTimeout, "Request Timeout")
    }

    // MARK: Ending

    /// Ends the connection: stops reading, timers and the exchange's work;
    /// the server then closes the stream after its writes.
    private func finish(notify: Bool = true) {
        guard !isFinished else { return }
        isFinished = true
        deadline = nil
        timer?.disposable.dispose()
        timer = nil
        reading.dispose()
        quiescing.dispose()
        if let exchange {
            exchange.stopWork()
            exchange.body?.fail(UVError(code: .cancelled, operation: "HTTP request body"))
        }
        exchange = nil
        spareExchange = nil
        spareHead.release()
        backlog = []
        writeWatcher.connection = nil
        let observer = self.observer
        self.observer = nil
        if notify { observer?(.completed) }
    }

    // MARK: Writing

    private func encode(_ part: HTTPResponsePart, into buffers: inout [ByteBuffer]) {
        // The encoder throws for nothing it is given here.
        try? encoder.encode(part, into: &buffers)
    }

    private func write(_ buffer: ByteBuffer) {
        _ = stream.write(buffer, notifying: writeWatcher)
    }

    private func write(_ buffers: [ByteBuffer]) {
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

/// What arrives from the decoder, in order.
enum HTTPServerInput {
    case part(HTTPRequestPart)
    case failed(any Error)
    case ended
}

/// One request and its answer; the observer of the handler's `Single`,
/// whose outcome it passes to the connection, once.
// @unchecked Sendable: the answer may come on any thread, and `on` reads
// only `connection`, set once; the rest is loop-thread state, touched by
// one thread with no overlapping access (`@exclusivity(unchecked)`: no
// run-time checks).
final class HTTPExchange: ObserverType, @unchecked Sendable {
    /// What the response depends on of the request's head.
    @exclusivity(unchecked) private(set) var method: HTTPRequest.Method
    @exclusivity(unchecked) private(set) var minorVersion: Int
    @exclusivity(unchecked) private(set) var expectsContinue: Bool
    @exclusivity(unchecked) private(set) var body: HTTPBodySource?
    @exclusivity(unchecked) var keepAlive: Bool
    /// When the head was decoded (`Loop.monotonicNanoseconds`), for
    /// `HTTPServerOptions.onResponse`; `nil` when nothing is measured.
    @exclusivity(unchecked) var began: Int64?
    @exclusivity(unchecked) var continueSent = false
    /// The head of the response is written.
    @exclusivity(unchecked) var started = false
    /// The whole response is written (handed to the stream).
    @exclusivity(unchecked) var answered = false
    /// The handler's `Single`, then the streamed body's subscription.
    @exclusivity(unchecked) var work: Disposable?

    /// Disposes the work in hand.
    func stopWork() {
        let work = self.work
        self.work = nil
        work?.dispose()
    }

    /// The connection the answer goes to (none for a refusal, which
    /// answers in place of a handler). Held strongly: a weak reference
    /// would cost every request a side table's work (about 250
    /// instructions). The cycle it makes with the connection's `exchange`
    /// ends when the exchange is over or the connection finishes, which
    /// also disposes the handler's `Single`, the exchange's other owner.
    private let connection: (any HTTPServerEvents)?

    init(
        method: HTTPRequest.Method, minorVersion: Int, expectsContinue: Bool, body: HTTPBodySource?, keepAlive: Bool,
        connection: (any HTTPServerEvents)? = nil
    ) {
        self.method = method
        self.minorVersion = minorVersion
        self.expectsContinue = expectsContinue
        self.body = body
        self.keepAlive = keepAlive
        self.connection = connection
    }

    /// Makes this exchange, which nothing holds but its connection any
    /// more, the one of the connection's next request: as new, for the
    /// same connection. Loop thread.
    func renew(method: HTTPRequest.Method, minorVersion: Int, expectsContinue: Bool, body: HTTPBodySource?, keepAlive: Bool) {
        self.method = method
        self.minorVersion = minorVersion
        self.expectsContinue = expectsContinue
        self.body = body
        self.keepAlive = keepAlive
        began = nil
        continueSent = false
        started = false
        answered = false
        work = nil
    }

    /// The handler's answer. A Single's grammar: one element or one error;
    /// the completion after an element is nothing more.
    func on(_ event: Event<HTTPServerResponse>) {
        switch event {
        case .next(let response): connection?.answered(.success(response), for: self)
        case .error(let error): connection?.answered(.failure(error), for: self)
        case .completed: break
        }
    }

    /// The request's body has arrived whole (or there is none).
    var isReceived: Bool {
        body?.isFinished ?? true
    }
}

/// What the observers of a connection's parts and answers call: the
/// connection, behind a protocol so that they are not generic (a generic
/// observer costs a metadata lookup per event).
protocol HTTPServerEvents: AnyObject {
    /// What the decoder cut, in order. Loop thread.
    func input(_ input: HTTPServerInput)
    /// The handler's answer for `exchange`, from any thread.
    func answered(_ result: Result<HTTPServerResponse, any Error>, for exchange: HTTPExchange)
    /// A write failed, from any thread.
    func writeFailed()
}

/// Passes the decoder's events to the connection. Holds it strongly (a
/// weak load per part would cost more than the part's delivery): the
/// cycle through the connection's `reading` ends when the connection
/// finishes, which disposes it.
final class HTTPPartObserver: ObserverType {
    private let connection: any HTTPServerEvents

    init(_ connection: any HTTPServerEvents) {
        self.connection = connection
    }

    func on(_ event: Event<HTTPRequestPart>) {
        switch event {
        case .next(let part): connection.input(.part(part))
        case .error(let error): connection.input(.failed(error))
        case .completed: connection.input(.ended)
        }
    }
}

/// Watches a connection's writes: a failure stops its answering.
final class HTTPWriteWatcher: ObserverType, @unchecked Sendable {
    /// The connection, until it finishes (which ends the cycle).
    // @unchecked Sendable: `connection` is touched on the loop thread
    // only, where writes end and the connection finishes.
    var connection: (any HTTPServerEvents)?

    func on(_ event: Event<Never>) {
        if case .error = event {
            connection?.writeFailed()
        }
    }
}

/// A count a value observer keeps across its events.
private final class Counter: @unchecked Sendable {
    var value = 0
}

/// What every `HTTPServerConnection` shares.
private enum HTTPServerConnectionConstants {
    static let continueLine = ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")
}
