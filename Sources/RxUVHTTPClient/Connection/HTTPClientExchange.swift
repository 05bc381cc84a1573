import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// One request's trip through the client: queued for a connection, sent,
/// answered, and finished (its response's end, a failure, its timeout, or
/// the caller's disposal). Its state is on the client's loop thread: the
/// exchange is its own `LoopBound` (`state`), one allocation for both; the
/// rest is fixed when it is made. It is its caller's subscription:
/// disposing it cancels it (`cancel()`, on the loop thread).
final class HTTPClientExchange: LoopBound<HTTPClientExchangeState>, Disposable, LoopConfined, Sendable {
    /// The pool it goes to.
    let pool: HTTPConnectionPool
    /// The bound of the whole exchange, its body's end included.
    let timeout: Duration?
    /// Its client span, when the client traces.
    let span: HTTPClientSpan?
    let key: HTTPPoolKey
    /// The head to send: the request with the client's default fields, and
    /// the framing its body asks for.
    let head: HTTPRequestHead
    let body: HTTPClientRequestBody
    /// `head` as `HTTPRequestEncoder` writes it, once.
    let headBytes: ByteBuffer
    /// The request asks to switch protocols (`rx.upgrade`): a `101` is its
    /// answer, not a failure.
    let upgrades: Bool
    /// Its state, on the loop thread: the exchange itself, as the box.
    var state: LoopBound<HTTPClientExchangeState> { self }

    /// The exchange of `request` with `body` as `client`'s configuration
    /// shapes it (read field by field, the configuration not copied), for
    /// `pool`, its outcome to `observer` (and to `span`, whose context
    /// `request` carries); throws `HTTPClientError.invalidRequest` for a
    /// request that cannot be sent.
    init(
        _ request: borrowing HTTPRequest, body: HTTPClientRequestBody, client: HTTPClient, pool: HTTPConnectionPool,
        timeout: Duration?, upgrades: Bool = false, span: HTTPClientSpan? = nil, observer: any HTTPExchangeObserver
    ) throws(HTTPClientError) {
        self.pool = pool
        self.timeout = timeout
        self.upgrades = upgrades
        self.span = span
        var key = try HTTPPoolKey(request)
        key.versions = HTTPPoolKey.Versions(client.configuration.httpVersions, isSecure: key.isSecure, upgrades: upgrades)
        self.key = key
        self.body = body
        var request = copy request
        if request.path == nil || request.path == "" {
            guard request.method != .connect else { throw HTTPClientError(.invalidRequest, "CONNECT is not sent by this client") }
            request.path = "/"
        }
        if request.headerFields.isEmpty {
            // Nothing to merge: the defaults as they are, their storage
            // shared (appending each would copy it for every request).
            request.headerFields = client.configuration.defaultHeaderFields
        } else {
            // Walks over the caller's few fields, not `headerFields[name]`,
            // which builds the fields' name index first.
            for field in client.configuration.defaultHeaderFields where !request.headerFields.contains(where: { $0.name == field.name }) {
                request.headerFields.append(field)
            }
        }
        if case .enabled = client.configuration.decompression, !request.headerFields.contains(where: { $0.name == .acceptEncoding }) {
            request.headerFields.append(HTTPField(name: .acceptEncoding, value: "gzip, deflate"))
        }
        let framing: HTTPRequestHead.BodyFraming
        switch body.content {
        case .bytes(let bytes) where bytes.isEmpty:
            framing = Self.sendsNoBodyWhenEmpty(request.method) ? .none : .length(0)
        case .stream(_, nil), .paced(_, nil):
            framing = .chunked
        default:
            framing = .length(body.length ?? 0)
        }
        var closes = false
        var expectsContinue = false
        for field in request.headerFields {
            if field.name == .connection {
                closes = closes || field.value.lowercased().contains("close")
            } else if field.name == .expect {
                expectsContinue = expectsContinue || field.value.lowercased() == "100-continue"
            }
        }
        let expects = framing != .none && framing != .length(0) && expectsContinue
        // Encoded from a local, then moved in: encoded from the stored
        // property, the head would be copied (its request's strings and
        // fields retained and released).
        let head = HTTPRequestHead(request, body: framing, keepAlive: !closes, expectsContinue: expects)
        do {
            headBytes = try HTTPRequestEncoder.head(head)
        } catch {
            throw HTTPClientError(.invalidRequest, "\(error)")
        }
        self.head = head
        super.init(HTTPClientExchangeState(observer: observer), loop: pool.loop)
    }

    /// Whether `method`'s empty body is sent without `Content-Length`: a
    /// match on the method (no set hashed for every request).
    static func sendsNoBodyWhenEmpty(_ method: HTTPRequest.Method) -> Bool {
        switch method {
        case .get, .head, .delete, .options, .trace, .connect: true
        default: false
        }
    }
    /// The methods a retry may send again (RFC 9110 §9.2.2).
    static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]

    /// Whether the request may go once more on a new connection, its own
    /// having failed before any byte of its response: once, with a body
    /// that can be sent again; whatever its method when the server left it
    /// unprocessed (`REFUSED_STREAM`, past a GOAWAY's last stream); an
    /// idempotent one when a reused connection went stale as it was sent
    /// (`staleReuse`) and `retriesOnStaleConnection` allows.
    func mayRetry(unprocessed: Bool, staleReuse: Bool, configuration: HTTPClientConfiguration) -> Bool {
        guard !state.value.retried, body.isReplayable else { return false }
        return unprocessed || (staleReuse && configuration.retriesOnStaleConnection && Self.idempotentMethods.contains(head.request.method))
    }

    /// What the caller asks of it on the loop thread.
    enum Step: UInt8, LoopStep {
        /// Start: the timer of the whole exchange, then the pool.
        case begin
        /// `cancel()`.
        case cancel
    }

    func runOnLoopThread(_ step: Step) {
        switch step {
        case .begin: begin()
        case .cancel: cancel()
        }
    }

    /// The caller disposed: `cancel()` on the loop thread. The span, if
    /// any, ends as cancelled unless the exchange ended first.
    func dispose() {
        span?.cancelled()
        loop.enter(self, .cancel)
    }

    /// The caller subscribed: the timer of the whole exchange starts, and
    /// the request goes to its pool. Loop thread.
    private func begin() {
        if let timeout {
            state.value.timer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
                timedOut(after: timeout)
                return Disposables.create()
            }
        }
        pool.submit(self)
    }

    /// Whether the exchange is over (so nothing more is done for it).
    var isFinished: Bool {
        if case .finished = state.value.phase { return true }
        return false
    }

    /// The response's head arrived on `carrier`: the caller has it.
    func responded(_ response: HTTPClientResponse, on carrier: any HTTPExchangeCarrier) {
        guard !isFinished else { return }
        state.value.phase = .responding(carrier)
        let observer = state.value.observer
        state.value.observer = nil
        span?.answered(response.status)
        observer?.exchangeResponded(response)
    }

    /// The response ended (or was let go): stops the timer.
    func finish() {
        state.value.phase = .finished
        state.value.observer = nil
        Disposables.take(&state.value.timer).dispose()
    }

    /// The exchange failed before its response's head (after it, the
    /// body's reader learns the error): the caller is told.
    func fail(_ error: any Error) {
        let observer = state.value.observer
        finish()
        guard let observer else { return }
        span?.failed(error)
        observer.exchangeFailed(error)
    }

    /// The caller disposed: a queued request leaves its queue, one on a
    /// connection closes it (a response cut short cannot be read past),
    /// one on an HTTP/2 stream resets the stream.
    /// Once the response began, its body's reader decides.
    func cancel() {
        switch state.value.phase {
        case .new:
            finish()
        case .responding, .finished:
            return
        case .queued(let pool):
            finish()
            pool.remove(self)
        case .sending(let connection):
            finish()
            connection.abort(self)
        }
    }

    private func timedOut(after timeout: Duration) {
        state.value.timer = Disposables.create()
        let error = HTTPClientError(.requestTimeout, "the request to \(key) did not end within \(timeout)")
        switch state.value.phase {
        case .new, .finished:
            return
        case .queued(let pool):
            pool.remove(self)
            fail(error)
        case .sending(let connection):
            fail(error)
            connection.abort(self)
        case .responding(let connection):
            finish()
            connection.responseFailed(error)
        }
    }
}
