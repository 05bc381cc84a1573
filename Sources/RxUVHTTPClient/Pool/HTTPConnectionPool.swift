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
        /// The TLS contexts, by what they offer through ALPN, once an
        /// `https` request needed each.
        var tls: [HTTPPoolKey.Versions: TLSContext] = [:]
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
    /// SNI, the host's name checked (an IP address against the
    /// certificate's addresses) and ALPN offering the key's versions; and
    /// whether it speaks HTTP/2 (prior knowledge, or ALPN's `h2`). Fails
    /// with `HTTPClientError.connectionClosed` when an HTTP/2-only key's
    /// server did not agree on `h2`.
    func connect(_ key: HTTPPoolKey) throws -> Single<(stream: any ByteStream, speaksHTTP2: Bool)> {
        guard key.isSecure else {
            let speaksHTTP2 = key.versions == .http2
            return loop.rx.connect(host: key.host, port: key.port).map { ($0 as any ByteStream, speaksHTTP2) }
        }
        let context = try tlsContext(key.versions)
        let versions = key.versions
        return loop.rx.connect(host: key.host, port: key.port, tls: context).map { stream in
            let agreed = stream.session?.applicationProtocol == "h2"
            if versions == .http2, !agreed {
                stream.close(.now)
                throw HTTPClientError(.connectionClosed, "\(key) did not agree on HTTP/2 (ALPN h2)")
            }
            return (stream as any ByteStream, agreed)
        }
    }

    private func tlsContext(_ versions: HTTPPoolKey.Versions) throws -> TLSContext {
        if let context = state.value.tls[versions] { return context }
        var tls = configuration.tls
        tls.applicationProtocols = versions.applicationProtocols
        let context = try TLSContext(configuration: tls)
        state.value.tls[versions] = context
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
