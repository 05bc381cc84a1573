import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// The response as the decoder cuts it, and the timers that bound it.
extension HTTPClientConnection {
    func received(_ part: HTTPClientResponsePart) {
        guard !state.value.isClosed else { return }
        state.value.bytesArrived = true
        switch part {
        case .head(let head):
            headArrived(head)
        case .body(let bytes):
            let body = state.value.responseBody
            guard let decoder = state.value.contentDecoder else {
                body?.receive(bytes)
                return
            }
            do {
                for piece in try decoder.decode(bytes) { body?.receive(piece) }
            } catch {
                fail(error, retrying: false)
            }
        case .end(var last, let trailers):
            // Trailers are read (and bounded) by the decoder: the body's
            // reader finds them at its end (`trailerFields`).
            if let decoder = state.value.contentDecoder {
                state.value.contentDecoder = nil
                do {
                    let body = state.value.responseBody
                    for piece in try decoder.decode(last) { body?.receive(piece) }
                    try decoder.finish()
                } catch {
                    fail(error, retrying: false)
                    return
                }
                last = ByteBuffer()
            }
            let body = state.value.responseBody
            state.value.responseBody = nil
            state.value.responseEnded = true
            body?.end(last: last, trailers: trailers)
            settle()
        case .switched(let bytes):
            let body = state.value.responseBody
            body?.receive(bytes)
        }
    }

    func headArrived(_ head: HTTPResponseHead) {
        guard let exchange = state.value.exchange else { return }
        if head.isInformational {
            if head.statusCode == 100, state.value.awaitsContinue {
                state.value.awaitsContinue = false
                sendBody(of: exchange)
                armHeadTimer()
            }
            return
        }
        if head.body == .switchedProtocol {
            guard exchange.upgrades, head.statusCode == 101 else {
                fail(HTTPClientError(.unexpectedUpgrade, "\(pool.key) switched protocols (\(head.statusCode)) unasked"), retrying: false)
                return
            }
            upgraded(head, for: exchange)
            return
        }
        disarmTimer()
        if state.value.awaitsContinue {
            // Answered before the body was sent: it never will be.
            state.value.awaitsContinue = false
        }
        state.value.headArrived = true
        state.value.keepAlive = state.value.keepAlive && head.keepAlive
        var source: HTTPBodySource?
        let decoder: HTTPContentDecoder?
        do {
            decoder = head.body == .none ? nil : try HTTPContentDecoder(for: head.response, pool.configuration.decompression)
        } catch {
            fail(error, retrying: false)
            return
        }
        state.value.contentDecoder = decoder
        switch head.body {
        case .none, .switchedProtocol:
            state.value.responseEnded = true
        case .length(let length):
            source = HTTPBodySource(
                loop: loop, declaredLength: decoder == nil ? length : nil, connection: self, bufferLimit: pool.configuration.responseBufferSize)
        case .chunked, .untilClose:
            source = HTTPBodySource(loop: loop, declaredLength: nil, connection: self, bufferLimit: pool.configuration.responseBufferSize)
        }
        state.value.responseBody = source
        let response = HTTPClientResponse(head: head.response, statusCode: head.statusCode, minorVersion: head.minorVersion, body: HTTPClientResponseBody(source: source))
        exchange.responded(response, on: self)
        settle()
    }

    /// The server switched protocols for `exchange`: the connection leaves
    /// its pool, and what the server sends from now on (the decoder's
    /// `.switched` bytes) is the response's body, the upgrade's `inbound`
    /// (`HTTPClient.upgrade` makes the `HTTPClientUpgrade` from it).
    func upgraded(_ head: HTTPResponseHead, for exchange: HTTPClientExchange) {
        state.value.deadline.cancel()
        state.value.headArrived = true
        state.value.keepAlive = false
        state.value.isUpgraded = true
        let source = HTTPBodySource(loop: loop, declaredLength: nil, connection: self, bufferLimit: pool.configuration.responseBufferSize)
        state.value.responseBody = source
        state.value.exchange = nil
        Disposables.take(&state.value.bodyWork).dispose()
        pool.removed(self)
        let inbound = HTTPClientResponseBody(source: source, upgraded: self)
        exchange.responded(HTTPClientResponse(head: head.response, statusCode: head.statusCode, minorVersion: head.minorVersion, body: inbound), on: self)
        exchange.finish()
    }

    /// The upgrade's owner closes: after the queued writes.
    func closeUpgraded() {
        guard state.value.isUpgraded, !state.value.isClosed else { return }
        stream.close(.afterWrites)
    }

    /// The input ended: a response in hand that the close does not end is
    /// cut short; an idle connection leaves its pool; an upgraded one's
    /// `inbound` ends.
    func inputEnded() {
        guard !state.value.isClosed else { return }
        if state.value.isUpgraded {
            let body = state.value.responseBody
            state.value.responseBody = nil
            close()
            body?.end(last: ByteBuffer())
            return
        }
        guard state.value.exchange != nil, !state.value.responseEnded else {
            close()
            return
        }
        fail(HTTPClientError(.connectionClosed, "\(pool.key) closed the connection before the response's end"), retrying: true)
    }

    // MARK: Timers

    func armHeadTimer() {
        guard !state.value.headArrived else { return }
        arm(.head, after: pool.configuration.headTimeout)
    }

    /// Waits in the pool: after `idleTimeout`, closes.
    func parkIdle() {
        arm(.idle, after: pool.configuration.idleTimeout)
    }

    /// Sets the connection's one deadline (`HTTPDeadline`) `interval` from
    /// now (none when `nil`), replacing the one before: the head's, `100
    /// Continue`'s or the idle time's. A timer is scheduled only when the
    /// one standing would fire after it.
    func arm(_ kind: HTTPDeadline.Kind, after interval: Duration?) {
        if let interval = state.value.deadline.arm(kind, after: interval.map(RxTimeInterval.init), now: loop.now) {
            scheduleDeadlineTimer(after: interval)
        }
    }

    func withDeadline<Result>(_ body: (inout HTTPDeadline) -> Result) -> Result {
        body(&state.value.deadline)
    }

    func deadlineExpired(_ kind: HTTPDeadline.Kind) {
        switch kind {
        case .head:
            fail(HTTPClientError(.headTimeout, "no response head from \(pool.key) within \(pool.configuration.headTimeout ?? .zero)"), retrying: false)
        case .continue:
            continueTimedOut()
        case .idle:
            close()
        }
    }

    /// No deadline runs (the head arrived); the standing timer finds none.
    func disarmTimer() {
        state.value.deadline.disarm()
    }
}

/// The decoder's parts, errors and end, handed to the connection (on the
/// loop thread, where `rx.data` emits).
struct HTTPClientResponseObserver: ObserverType {
    let connection: HTTPClientConnection

    init(_ connection: HTTPClientConnection) {
        self.connection = connection
    }

    /// A part, passed on as it is (`on(.next(_:))` would copy it into an
    /// `Event` and destroy it there, every part).
    func onNext(_ part: HTTPClientResponsePart) {
        connection.received(part)
    }

    func on(_ event: Event<HTTPClientResponsePart>) {
        switch event {
        case .next(let part): connection.received(part)
        case .error(let error as HTTPParseError) where connection.state.value.inputEnded:
            // The decoder refuses, at the input's end, a response cut short.
            connection.fail(HTTPClientError(.connectionClosed, "\(connection.pool.key) closed the connection mid-response (\(error.reason))"), retrying: true)
        case .error(let error): connection.fail(error, retrying: true)
        case .completed: connection.inputEnded()
        }
    }
}
