import CoreMetrics
import RxCore
import RxUV
import RxUVTLS

/// A client's pools on one loop, one per scheme, host and port, made as
/// requests need them and let go once empty; how a connection is made
/// (TCP, then TLS for `https`, with a context made at the first `https`
/// request); and the client's shutdown, which ends when the last pool has.
///
/// Its state is in one `LoopBound`; every method runs on the loop thread.
final class HTTPConnectionPool: Sendable {
    let loop: Loop
    let configuration: HTTPClientConfiguration
    let metrics: HTTPClientMetrics
    let state: LoopBound<State>

    struct State {
        var pools: [HTTPPoolKey: HTTPHostPool] = [:]
        /// The TLS context, once an `https` request needed it.
        var tls: TLSContext?
        var isShuttingDown = false
        /// Told when the shutdown is over.
        var shutdownObservers: [Completable.CompletableObserver] = []
    }

    init(loop: Loop, configuration: HTTPClientConfiguration) {
        self.loop = loop
        self.configuration = configuration
        self.metrics = HTTPClientMetrics(label: configuration.metricsLabel, factory: configuration.metricsFactory ?? MetricsSystem.factory)
        self.state = LoopBound(State(), loop: loop)
    }

    /// Hands `exchange` to its host's pool.
    func submit(_ exchange: HTTPClientExchange) {
        guard !state.value.isShuttingDown else {
            exchange.fail(HTTPClientError(.shutdown, "the client is shut down"))
            return
        }
        let pool: HTTPHostPool
        if let existing = state.value.pools[exchange.key] {
            pool = existing
        } else {
            pool = HTTPHostPool(key: exchange.key, owner: self)
            state.value.pools[exchange.key] = pool
        }
        pool.submit(exchange)
    }

    /// A connection to `key`: TCP, then for `https` a TLS handshake with
    /// SNI and the host's name checked (an IP address against the
    /// certificate's addresses).
    func connect(_ key: HTTPPoolKey) throws -> Single<any ByteStream> {
        let tcp = loop.rx.connect(host: key.host, port: key.port)
        guard key.isSecure else { return tcp.map { $0 as any ByteStream } }
        let context = try tlsContext()
        return loop.rx.connect(host: key.host, port: key.port, tls: context).map { $0 as any ByteStream }
    }

    private func tlsContext() throws -> TLSContext {
        if let context = state.value.tls { return context }
        var tls = configuration.tls
        if tls.applicationProtocols.isEmpty { tls.applicationProtocols = ["http/1.1"] }
        let context = try TLSContext(configuration: tls)
        state.value.tls = context
        return context
    }

    /// `pool` has nothing open, connecting or waiting: it goes.
    func forgetIfEmpty(_ pool: HTTPHostPool) {
        guard pool.isEmpty, state.value.pools[pool.key] === pool else { return }
        state.value.pools[pool.key] = nil
        if state.value.isShuttingDown, state.value.pools.isEmpty { shutdownDone() }
    }

    /// Takes no more requests; tells `observer` once every connection has
    /// closed (those carrying an exchange close after it).
    func shutdown(_ observer: @escaping Completable.CompletableObserver) {
        state.value.shutdownObservers.append(observer)
        guard !state.value.isShuttingDown else {
            if state.value.pools.isEmpty { shutdownDone() }
            return
        }
        state.value.isShuttingDown = true
        for pool in Array(state.value.pools.values) { pool.shutdown() }
        if state.value.pools.isEmpty { shutdownDone() }
    }

    private func shutdownDone() {
        let observers = state.value.shutdownObservers
        state.value.shutdownObservers = []
        for observer in observers { observer(.completed) }
    }
}
