import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// One connection of a host's pool: carries one exchange at a time (no
/// pipelining), writing its request with `HTTPRequestEncoder` through the
/// stream's one write primitive and cutting its response with
/// `HTTPResponseDecoder`, then goes back to the pool (keep-alive) or
/// closes. It reads all along, idle too, so that a server that closes an
/// idle connection takes it out of the pool at once.
///
/// Its state is in one `LoopBound`; every method runs on the loop thread.
final class HTTPClientConnection: HTTPBodyConnection, HTTPExchangeCarrier, HTTPDeadlineOwner, Sendable {
    let stream: any ByteStream
    let loop: Loop
    let pool: HTTPHostPool
    /// The requests sent whose responses have not begun, shared with the
    /// decoder.
    let pending: LoopBound<HTTPPendingRequests>
    let state: LoopBound<HTTPClientConnectionState>
    let reading = SingleAssignmentDisposable()

    init(stream: any ByteStream, pool: HTTPHostPool) {
        self.stream = stream
        self.loop = stream.loop
        self.pool = pool
        self.pending = LoopBound(HTTPPendingRequests(), loop: stream.loop)
        self.state = LoopBound(HTTPClientConnectionState(), loop: stream.loop)
    }

    /// Starts reading.
    func start() {
        let decoder = HTTPResponseDecoder(pending: pending.value, limits: pool.configuration.limits)
        reading.setDisposable(
            stream.receivedData
                .do(onCompleted: { [self] in state.value.inputEnded = true })
                .decodeFrames(decoder)
                .subscribe(HTTPClientResponseObserver(self)))
    }

    var isClosed: Bool {
        state.value.isClosed
    }

    // MARK: Sending

    /// Carries `exchange`: writes its request and waits for its response.
    func run(_ exchange: HTTPClientExchange) {
        state.value.exchange = exchange
        state.value.requestSent = false
        state.value.headArrived = false
        state.value.bytesArrived = false
        state.value.responseEnded = false
        state.value.writeFailure = nil
        state.value.keepAlive = exchange.head.keepAlive
        exchange.state.value.phase = .sending(self)
        pending.value.append(exchange.head.request.method)
        let head = exchange.headBytes
        if exchange.head.expectsContinue {
            write(.one(head))
            state.value.awaitsContinue = true
            arm(.continue, after: pool.configuration.continueTimeout)
            return
        }
        if case .bytes(let bytes) = exchange.body.content {
            write(bytes.isEmpty ? .one(head) : .many([head, bytes]))
            state.value.requestSent = true
        } else {
            write(.one(head))
            sendBody(of: exchange)
        }
        armHeadTimer()
    }

    /// Sends the body that is not in hand (a stream, a file), or the bytes
    /// held for `100 Continue`.
    func sendBody(of exchange: HTTPClientExchange) {
        switch exchange.body.content {
        case .bytes(let bytes):
            if !bytes.isEmpty { write(.one(bytes)) }
            state.value.requestSent = true
        case .stream(let source, let length):
            let writer = HTTPClientBodyWriter(connection: self, exchange: exchange, length: length)
            state.value.bodyWork = source.subscribe(writer)
        case .paced(let body, let length):
            let writer = HTTPClientBodyWriter(connection: self, exchange: exchange, length: length)
            state.value.bodyWork = body.pieces(pacedBy: .stream(stream)).subscribe(writer)
        case .file(let file, let range):
            state.value.bodyWork = stream.write(file, range: range).subscribe { [self] event in
                switch event {
                case .completed: requestBodySent(for: exchange)
                case .error(let error): requestBodyFailed(error, for: exchange)
                }
            }
        }
    }

    /// The request's body went whole.
    func requestBodySent(for exchange: HTTPClientExchange) {
        guard state.value.exchange === exchange, !state.value.isClosed else { return }
        state.value.requestSent = true
        settle()
    }

    /// The request's body failed (its source's error, a length that does
    /// not match, a file cut short): the exchange fails and the connection
    /// closes.
    func requestBodyFailed(_ error: any Error, for exchange: HTTPClientExchange) {
        guard state.value.exchange === exchange, !state.value.isClosed else { return }
        fail(error, retrying: false)
    }

    func continueTimedOut() {
        guard state.value.awaitsContinue, let exchange = state.value.exchange else { return }
        state.value.awaitsContinue = false
        sendBody(of: exchange)
        armHeadTimer()
    }

    func write(_ payload: StreamWritePayload) {
        _ = stream.startWrite(payload, notifying: HTTPClientWriteWatcher(connection: self))
    }

    /// A write failed (`EPIPE`, `ECONNRESET`): the request cannot go out
    /// whole. A server that refuses a request mid-body answers before it
    /// closes (a `413`), so the read side goes on: the response, if one
    /// came, is delivered (and the connection closed after it); the end of
    /// the input without one fails the exchange with this error. The head
    /// timeout still bounds the wait.
    func writeFailed(_ error: any Error) {
        guard !state.value.isClosed, state.value.exchange != nil, state.value.writeFailure == nil else { return }
        state.value.writeFailure = error
        state.value.keepAlive = false
        Disposables.take(&state.value.bodyWork).dispose()
    }

    // MARK: Ending

    /// The response ended or the request's body went whole: once both
    /// have, the exchange is over and the connection goes back to the pool
    /// (or closes). A response that ended before its request's body went
    /// whole (an early answer, a refused `100-continue`) leaves the
    /// connection unusable.
    func settle() {
        guard let exchange = state.value.exchange, state.value.responseEnded, !state.value.isClosed else { return }
        guard state.value.requestSent else {
            state.value.exchange = nil
            exchange.finish()
            close()
            return
        }
        state.value.exchange = nil
        state.value.served += 1
        exchange.finish()
        Disposables.take(&state.value.bodyWork).dispose()
        if state.value.keepAlive {
            pool.release(self)
        } else {
            close()
        }
    }

    /// The exchange in hand fails with `error` and the connection closes.
    /// Before any byte of the response, on a connection that carried an
    /// exchange before, an idempotent request goes once more to the pool
    /// (`retrying`).
    func fail(_ error: any Error, retrying: Bool) {
        guard !state.value.isClosed else { return }
        let error = state.value.writeFailure ?? error
        guard let exchange = state.value.exchange else {
            // Idle, or upgraded: the upgrade's reader hears the error.
            let body = state.value.isUpgraded ? state.value.responseBody : nil
            state.value.responseBody = nil
            close()
            body?.fail(error)
            return
        }
        state.value.exchange = nil
        if state.value.headArrived {
            let body = state.value.responseBody
            state.value.responseBody = nil
            exchange.finish()
            close()
            body?.fail(error)
            return
        }
        let retry =
            retrying && !state.value.bytesArrived
            && exchange.mayRetry(unprocessed: false, staleReuse: state.value.served > 0, configuration: pool.configuration)
        close()
        if retry {
            exchange.state.value.retried = true
            pool.retry(exchange)
        } else {
            exchange.fail(error)
        }
    }

    /// The response's reader (or the exchange's timeout) gave up on the
    /// response: the connection closes, the body's reader hears `error`.
    func responseFailed(_ error: any Error) {
        fail(error, retrying: false)
    }

    /// The caller disposed `exchange` before its response began: the
    /// connection closes.
    func abort(_ exchange: HTTPClientExchange) {
        guard state.value.exchange === exchange else { return }
        state.value.exchange = nil
        close()
    }

    /// Closes the connection now (queued writes fail, reading stops) and
    /// takes it out of its pool.
    func close() {
        guard !state.value.isClosed else { return }
        state.value.isClosed = true
        state.value.deadline.cancel()
        let work = Disposables.take(&state.value.bodyWork)
        let body = state.value.responseBody
        state.value.responseBody = nil
        let exchange = state.value.exchange
        state.value.exchange = nil
        reading.dispose()
        work.dispose()
        stream.close(.now)
        // An upgraded connection left its pool when it switched.
        if !state.value.isUpgraded { pool.removed(self) }
        let closed = HTTPClientError(.connectionClosed, "the connection to \(pool.key) closed")
        body?.fail(closed)
        exchange?.fail(closed)
    }

    // MARK: Response body

    func body(_ body: HTTPBodySource, holds held: Bool) {
        guard state.value.responseBody === body, held != state.value.isHoldingReading else { return }
        state.value.isHoldingReading = held
        stream.holdReading(held)
    }

    func bodyWanted(_ body: HTTPBodySource) {}

    /// The reader left the body before its end: the rest cannot be skipped
    /// cheaply, so the connection closes (and the body fails, for a reader
    /// that would still come). An upgrade's `inbound` let go closes the
    /// connection too.
    func bodyAbandoned(_ body: HTTPBodySource) {
        if state.value.isUpgraded, state.value.responseBody === body {
            close()
            return
        }
        guard state.value.responseBody === body, !state.value.responseEnded, let exchange = state.value.exchange else { return }
        state.value.exchange = nil
        exchange.finish()
        close()
    }
}

/// Tells the connection of a failed write, on the loop thread.
struct HTTPClientWriteWatcher: ObserverType {
    let connection: HTTPClientConnection

    func on(_ event: Event<Never>) {
        if case .error(let error) = event {
            connection.loop.enter { [connection] in connection.writeFailed(error) }
        }
    }
}
