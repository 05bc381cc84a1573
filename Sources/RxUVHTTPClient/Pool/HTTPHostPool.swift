import RxCore
import RxUV
import RxUVTLS

/// The connections to one scheme, host and port, on one loop: at most
/// `maxConnectionsPerHost` of them, reused while they are kept alive (the
/// most recently used first), and a bounded queue of the requests that
/// wait for one. A new connection is made when a request waits and the
/// bound allows; a connection that comes free takes the oldest waiting
/// request or goes idle (closed after `idleTimeout`). A connect that fails
/// fails the oldest waiting request with its error.
///
/// A host that may speak HTTP/2 gets one connect at a time until the
/// first tells (ALPN): HTTP/1.1, and the pool goes on as above; HTTP/2,
/// and that one connection carries the requests, as many at once as the
/// server allows, the rest waiting in the queue for a stream to end. A new
/// one is made only once it goes away (a GOAWAY, an error, its idle
/// timeout).
///
/// Its state is in one `LoopBound`; every method runs on the loop thread.
final class HTTPHostPool: Sendable {
    let key: HTTPPoolKey
    let loop: Loop
    let configuration: HTTPClientConfiguration
    let owner: HTTPConnectionPool
    let state: LoopBound<HTTPHostPoolState>

    init(key: HTTPPoolKey, owner: HTTPConnectionPool) {
        self.key = key
        self.loop = owner.loop
        self.configuration = owner.configuration
        self.owner = owner
        self.state = LoopBound(HTTPHostPoolState(), loop: owner.loop)
    }

    /// Whether nothing is open, connecting or waiting: the pool can go.
    var isEmpty: Bool {
        state.value.open == 0 && state.value.connecting.isEmpty && state.value.waitingCount == 0
    }

    // MARK: Requests

    /// Gives `exchange` a connection: an idle one, else a place in the
    /// queue (a new connection started for it when the bound allows).
    func submit(_ exchange: HTTPClientExchange, first: Bool = false) {
        guard !state.value.isShuttingDown else {
            exchange.fail(HTTPClientError(.shutdown, "the client is shut down"))
            return
        }
        if let connection = state.value.multiplexed.last, connection.hasRoom {
            connection.run(exchange)
            return
        }
        if let connection = state.value.idle.popLast() {
            owner.metrics.idle.decrement()
            connection.run(exchange)
            return
        }
        // The queue's bound counts the requests that wait for a connection
        // to come free: not those a connect under way (or one that may
        // start now) is for. A host that speaks HTTP/2 (or may) makes one
        // connection for them all: every request waiting counts.
        let mayConnect: Bool
        let waitingForFree: Int
        if mayMultiplex {
            mayConnect = mayConnectToMultiplex
            waitingForFree = state.value.waitingCount
        } else {
            mayConnect = state.value.open + state.value.connecting.count < configuration.maxConnectionsPerHost
            waitingForFree = state.value.waitingCount - state.value.connecting.count
        }
        guard first || mayConnect || waitingForFree < configuration.maxQueuedRequestsPerHost else {
            exchange.fail(HTTPClientError(.queueFull, "\(waitingForFree) requests already wait for a connection to \(key)"))
            return
        }
        state.value.enqueue(exchange, first: first)
        exchange.state.value.phase = .queued(self)
        owner.metrics.queued.increment()
        connectIfNeeded()
    }

    /// `exchange` failed on a stale connection before its response: it
    /// goes first in the queue, for a new connection.
    func retry(_ exchange: HTTPClientExchange) {
        guard !exchange.isFinished else { return }
        owner.metrics.retried.increment()
        submit(exchange, first: true)
    }

    /// The oldest waiting request, taken out of the queue (and its count).
    private func nextWaiting() -> HTTPClientExchange? {
        guard let exchange = state.value.dequeue() else { return nil }
        owner.metrics.queued.decrement()
        return exchange
    }

    /// `exchange` left the queue (disposed, timed out).
    func remove(_ exchange: HTTPClientExchange) {
        let before = state.value.waitingCount
        state.value.remove(exchange)
        if state.value.waitingCount < before { owner.metrics.queued.decrement() }
        owner.forgetIfEmpty(self)
    }

    // MARK: Connections

    /// Whether the host's connections speak HTTP/2, or may (the first
    /// has not told yet): one connection carries every request.
    private var mayMultiplex: Bool {
        key.versions != .http1 && state.value.speaksHTTP2 != false
    }

    /// Whether a host that multiplexes may start its one connect now: none
    /// is under way, the bound allows, and no connection takes streams.
    private var mayConnectToMultiplex: Bool {
        state.value.connecting.isEmpty && state.value.open < configuration.maxConnectionsPerHost
            && !state.value.multiplexed.contains(where: { $0.takesStreams })
    }

    /// Starts connects while requests wait beyond the connects under way
    /// and the bound allows; for a host that speaks HTTP/2, or may, one
    /// connect when requests wait and no connection takes new streams.
    func connectIfNeeded() {
        if mayMultiplex {
            if state.value.waitingCount > 0, mayConnectToMultiplex { connect() }
            return
        }
        while state.value.waitingCount > state.value.connecting.count,
            state.value.open + state.value.connecting.count < configuration.maxConnectionsPerHost
        {
            connect()
        }
    }

    private func connect() {
        let id = state.value.nextConnectID
        state.value.nextConnectID += 1
        let connecting = SingleAssignmentDisposable()
        state.value.connecting[id] = connecting
        let timeout = configuration.connectTimeout
        let timer = loop.scheduleRelative((), dueTime: timeout) { [self] _ in
            connectFailed(id, HTTPClientError(.connectTimeout, "no connection to \(key) within \(timeout)"))
            return Disposables.create()
        }
        let attempt: Single<(stream: any ByteStream, speaksHTTP2: Bool)>
        do {
            attempt = try owner.connect(key)
        } catch {
            // No connection can be made (the TLS configuration is wrong):
            // every request that waits fails with the reason.
            timer.dispose()
            state.value.connecting[id] = nil
            while let exchange = nextWaiting() { exchange.fail(error) }
            return
        }
        connecting.setDisposable(
            Disposables.create(
                timer,
                attempt.subscribe { [self] result in
                    switch result {
                    case .success(let made): connected(id, made.stream, speaksHTTP2: made.speaksHTTP2)
                    case .failure(let error): connectFailed(id, error)
                    }
                }))
    }

    private func connected(_ id: Int, _ stream: any ByteStream, speaksHTTP2: Bool) {
        guard let connecting = state.value.connecting.removeValue(forKey: id) else {
            stream.close(.now)
            return
        }
        connecting.dispose()
        state.value.open += 1
        owner.metrics.open.increment()
        if speaksHTTP2 {
            state.value.speaksHTTP2 = true
            let connection = HTTP2ClientConnection(stream: stream, pool: self)
            state.value.multiplexed.append(connection)
            connection.start()
            fill(connection)
            return
        }
        if key.versions != .http1 { state.value.speaksHTTP2 = false }
        let connection = HTTPClientConnection(stream: stream, pool: self)
        connection.start()
        release(connection)
        // A host found to speak HTTP/1.1 may need more connections.
        connectIfNeeded()
    }

    private func connectFailed(_ id: Int, _ error: any Error) {
        guard let connecting = state.value.connecting.removeValue(forKey: id) else { return }
        connecting.dispose()
        nextWaiting()?.fail(error)
        connectIfNeeded()
        owner.forgetIfEmpty(self)
    }

    /// `connection` is free: it takes the oldest waiting request, or waits
    /// idle (closes when the client shuts down).
    func release(_ connection: HTTPClientConnection) {
        if let exchange = nextWaiting() {
            connection.run(exchange)
            return
        }
        guard !state.value.isShuttingDown else {
            connection.close()
            return
        }
        guard configuration.idleTimeout > .zero else {
            connection.close()
            return
        }
        state.value.idle.append(connection)
        owner.metrics.idle.increment()
        connection.parkIdle()
    }

    /// `connection` closed: it leaves the pool; a request that waits may
    /// need a new one.
    func removed(_ connection: HTTPClientConnection) {
        if let index = state.value.idle.firstIndex(where: { $0 === connection }) {
            state.value.idle.remove(at: index)
            owner.metrics.idle.decrement()
        }
        state.value.open -= 1
        owner.metrics.open.decrement()
        connectIfNeeded()
        owner.forgetIfEmpty(self)
    }

    // MARK: HTTP/2 connections

    /// `connection` has room for more streams: it takes waiting requests
    /// while it has.
    func fill(_ connection: HTTP2ClientConnection) {
        while connection.hasRoom, let exchange = nextWaiting() { connection.run(exchange) }
        connectIfNeeded()
    }

    /// `connection` takes no new stream any more (a GOAWAY, the shutdown):
    /// a request that waits needs a new connection.
    func goingAway(_ connection: HTTP2ClientConnection) {
        connectIfNeeded()
    }

    /// `connection` closed: it leaves the pool. One that closed before
    /// the server's SETTINGS (`failure`) failed as a connect does: the
    /// oldest waiting request fails with its error.
    func removed(_ connection: HTTP2ClientConnection, failure: (any Error)? = nil) {
        guard let index = state.value.multiplexed.firstIndex(where: { $0 === connection }) else { return }
        state.value.multiplexed.remove(at: index)
        state.value.open -= 1
        owner.metrics.open.decrement()
        if let failure { nextWaiting()?.fail(failure) }
        connectIfNeeded()
        owner.forgetIfEmpty(self)
    }

    // MARK: Shutdown

    /// Takes no more requests: those waiting fail with `.shutdown`, idle
    /// connections and connects close; connections carrying an exchange
    /// close after it.
    func shutdown() {
        state.value.isShuttingDown = true
        let shut = HTTPClientError(.shutdown, "the client shut down")
        while let exchange = nextWaiting() { exchange.fail(shut) }
        let connects = state.value.connecting
        state.value.connecting = [:]
        for connect in connects.values { connect.dispose() }
        for connection in state.value.idle.reversed() { connection.close() }
        for connection in state.value.multiplexed { connection.shutdown() }
        owner.forgetIfEmpty(self)
    }
}
