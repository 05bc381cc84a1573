import HTTPTypes
@_spi(Bridge) import RxCore
import RxUV
import Synchronization
import Tracing

/// An HTTP/1.1 and HTTP/2 client on a `Loop` (or every loop of a `LoopGroup`): requests sent on pooled, kept-alive
/// connections (per scheme, host and port), `https` through RxUVTLS (HTTP/2
/// when ALPN agrees on `h2`: a host's requests then share one connection),
/// each response's head delivered at once and its body read with
/// backpressure.
///
/// ```swift
/// let client = HTTPClient(loop: loop)
/// let response = try await client.execute(HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/hello"))
/// let body = try await response.body.collect(upTo: 1 << 20).value
/// try await client.shutdown().value
/// ```
///
/// Requests go out as `client.rx.send(_:body:timeout:)` (a `Single`) or
/// `execute(_:body:timeout:)` (`async`); both run on the thread of the
/// loop the request went to, where the response, its body's bytes and
/// every failure arrive. The
/// client may be used from any thread. It holds its connections until
/// `shutdown()`, which a program calls before its loop ends.
public final class HTTPClient: Sendable, ReactiveCompatible {
    /// The loops the client's connections live on: one, or a group's.
    public let loops: [Loop]
    /// How the client connects, pools, waits and reads.
    public let configuration: HTTPClientConfiguration
    /// One pool of connections per loop.
    let pools: [HTTPConnectionPool]
    /// The next loop a request from outside the loops goes to.
    private let nextPool = Atomic<Int>(0)

    /// A client on `loop`, as `configuration` says.
    public convenience init(loop: Loop, configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.init(loops: [loop], configuration: configuration)
    }

    /// A client on every loop of `group`, as `configuration` says, with a
    /// pool of connections per loop (the bounds are per loop): a request
    /// made on one of the group's loop threads goes out on that loop, so
    /// its chain stays on one thread; one made elsewhere goes to the
    /// loops in turn.
    public convenience init(group: LoopGroup, configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.init(loops: group.loops, configuration: configuration)
    }

    private init(loops: [Loop], configuration: HTTPClientConfiguration) {
        precondition(!loops.isEmpty, "HTTPClient: no loop")
        self.loops = loops
        self.configuration = configuration
        self.pools = loops.map { HTTPConnectionPool(loop: $0, configuration: configuration) }
    }

    /// The pool a request made now goes to.
    private var pool: HTTPConnectionPool {
        if pools.count == 1 { return pools[0] }
        if let here = pools.first(where: { $0.loop.isOnLoopThread }) { return here }
        return pools[nextPool.wrappingAdd(1, ordering: .relaxed).oldValue % pools.count]
    }

    /// Shuts the client down when subscribed: no new request is taken (it
    /// fails with `HTTPClientError.shutdown`), the requests still waiting
    /// for a connection fail with it, idle connections close, and the
    /// exchanges under way finish (or fail: their own timeouts still run).
    /// Completes, on a loop thread, once the last connection of every loop
    /// has closed. Subscribing again completes when the same shutdown ends.
    public func shutdown() -> Completable {
        Completable.zip(
            pools.map { pool in
                Completable.create { observer in
                    pool.loop.enter { pool.shutdown(observer) }
                    return Disposables.create()
                }
            })
    }

    /// The exchange of `request`, as a `Single`, with the redirects it
    /// leads to followed as `configuration.redirects` says: the work of
    /// `rx.send(_:body:timeout:)`.
    ///
    /// Traced (`configuration.tracer`), each exchange's span is a child of
    /// `context`, or of the calling task's `ServiceContext.current`.
    func send(_ request: HTTPRequest, body: HTTPClientRequestBody, timeout: Duration?, context: ServiceContext? = nil) -> Single<HTTPClientResponse> {
        Single(
            raw: HTTPSend(
                client: self, request: request, body: body, timeout: timeout, trace: traceContext(context), redirects: configuration.redirects))
    }

    /// The parent of the exchanges' spans: `context`, or the task's
    /// current one, or a new trace; `nil` when the client does not trace.
    private func traceContext(_ context: ServiceContext?) -> ServiceContext? {
        guard configuration.tracing != nil else { return nil }
        return context ?? ServiceContext.current ?? .topLevel
    }

    /// The body of a redirect response read (and dropped) up to this, so
    /// that its connection is kept; a longer one closes it.
    static let redirectBodyLimit = 64 * 1024

    /// The upgrade of `request` to `protocolName`: the work of
    /// `rx.upgrade(_:to:timeout:)`.
    func upgrade(_ request: HTTPRequest, to protocolName: String, timeout: Duration?) -> Single<HTTPClientUpgrade> {
        var request = request
        if !request.headerFields.contains(where: { $0.name == .upgrade }) {
            request.headerFields.append(HTTPField(name: .upgrade, value: protocolName))
        }
        if !request.headerFields.contains(where: { $0.name == .connection }) {
            request.headerFields.append(HTTPField(name: .connection, value: "Upgrade"))
        }
        let target = request.urlString
        let send = HTTPSend(client: self, request: request, body: .empty, timeout: timeout, trace: traceContext(nil), redirects: .none, upgrades: true)
        return Single(raw: send).flatMap { response in
            if let connection = response.body.upgraded {
                return .just(HTTPClientUpgrade(head: response.head, stream: connection.stream, inbound: response.body, connection: connection))
            }
            // Refused: the answer's body is read (and dropped) up to a
            // bound, so that its connection is kept.
            let status = response.status
            return response.body.collect(upTo: Self.redirectBodyLimit).map { _ in () }.catchAndReturn(()).map { _ in
                throw HTTPClientError(.upgradeRefused, "\(target) answered \(status.code) \(status.reasonPhrase) to an upgrade to \(protocolName)")
            }
        }
    }

    /// Starts the exchange of `request` on its pool's loop (traced under
    /// `trace` when it is given, `HTTPClientSpan`), its outcome to
    /// `observer`; returns the exchange, which disposing cancels (or
    /// nothing, when `request` cannot be sent: `observer` has heard why).
    func begin(
        _ request: HTTPRequest, body: HTTPClientRequestBody, timeout: Duration?, upgrades: Bool, trace: ServiceContext?,
        observer: any HTTPExchangeObserver
    ) -> Disposable {
        guard let trace, let tracing = configuration.tracing else {
            return begin(request, body: body, timeout: timeout, upgrades: upgrades, span: nil, observer: observer)
        }
        // Only a traced request is copied: the span adds its context's
        // fields to it.
        var traced = request
        let span = HTTPClientSpan(&traced, context: trace, tracer: tracing.tracer)
        return begin(traced, body: body, timeout: timeout, upgrades: upgrades, span: span, observer: observer)
    }

    /// `begin`, its span (if any) made: the exchange made from `request`
    /// as it is, then entered on its pool's loop.
    private func begin(
        _ request: borrowing HTTPRequest, body: HTTPClientRequestBody, timeout: Duration?, upgrades: Bool, span: HTTPClientSpan?,
        observer: any HTTPExchangeObserver
    ) -> Disposable {
        let pool = self.pool
        let exchange: HTTPClientExchange
        do {
            exchange = try HTTPClientExchange(
                request, body: body, client: self, pool: pool, timeout: timeout ?? configuration.requestTimeout,
                upgrades: upgrades, span: span, observer: observer)
        } catch {
            span?.failed(error)
            observer.exchangeFailed(error)
            return Disposables.create()
        }
        pool.loop.enter(exchange, .begin)
        return exchange
    }
}

extension Reactive where Base == HTTPClient {
    /// Sends `request` with `body` when subscribed, and succeeds with the
    /// response as soon as its head has arrived, on the loop thread; the
    /// body follows (`HTTPClientResponse.body`).
    ///
    /// The request goes to its scheme's, host's and port's pool: on an idle
    /// kept-alive connection, a new one (TCP, `uv_tcp_connect`, then TLS for
    /// `https`), or after one comes free; on the host's HTTP/2 connection
    /// (ALPN `h2`), as a new stream, once one is free under the server's
    /// limit. Over HTTP/2 the head goes as a HEADERS frame
    /// (`:authority` for `Host`, no connection fields), the body as DATA
    /// frames at once (no `100 Continue` wait), and a cancel resets the
    /// stream alone; it may fail with `HTTP2StreamError` when the server
    /// resets it. Its head carries `Host` (the
    /// request's authority), the client's default fields, and the body's
    /// framing (`Content-Length`, or `Transfer-Encoding: chunked` for a
    /// stream of unknown length); with `Expect: 100-continue` the body
    /// waits for `100 Continue` (or `continueTimeout`). Interim responses
    /// are skipped; a response to `HEAD`, a 204 and a 304 have an empty
    /// body.
    ///
    /// Redirects are followed as `configuration.redirects` says (by default
    /// up to five, never from `https` to `http`), by RFC 9110's rules for
    /// the method and the body (`HTTPRedirectPolicy`); the response is the
    /// last one's.
    ///
    /// Fails with `HTTPClientError` (`.invalidRequest`, `.queueFull`,
    /// `.connectTimeout`, `.headTimeout`, `.requestTimeout`,
    /// `.connectionClosed`, `.shutdown`, `.redirect`), the connect's `UVError`, the TLS
    /// handshake's `TLSError`, or the `HTTPParseError` of a response the
    /// decoder refused. `timeout` bounds the whole exchange, the body's
    /// end included (by default `configuration.requestTimeout`).
    ///
    /// Disposing before the head arrives cancels: a queued request leaves
    /// its queue, a request on a connection closes that connection (it is
    /// not returned to the pool). After the head, the body's reader
    /// decides (`HTTPClientResponseBody`).
    ///
    /// Traced (`HTTPClientConfiguration.tracer`), each exchange has a client
    /// span, a child of `context` (a handler's `request.serviceContext`),
    /// or, without one, of the calling task's `ServiceContext.current`;
    /// the span's context goes out in the request's fields.
    public func send(
        _ request: HTTPRequest, body: HTTPClientRequestBody = .empty, timeout: Duration? = nil, context: ServiceContext? = nil
    ) -> Single<HTTPClientResponse> {
        base.send(request, body: body, timeout: timeout, context: context)
    }

    /// Asks to switch `request`'s connection to `protocolName` when
    /// subscribed (RFC 9110 §7.8: `Upgrade: protocolName` and `Connection:
    /// Upgrade` are added unless the request has its own), and succeeds
    /// with the switched connection (`HTTPClientUpgrade`) once the server
    /// has answered `101 Switching Protocols`, on the loop thread. The
    /// request goes as `send` sends it (a pooled or new connection, TLS for
    /// `https`), with no body and no redirect followed; the connection then
    /// leaves its pool and is the caller's.
    ///
    /// Fails with `HTTPClientError.upgradeRefused` when the server answers
    /// anything else (its body read and dropped up to 64 KiB, so that the
    /// connection is kept), and otherwise as `send` fails; `timeout` bounds
    /// the wait for the 101 (by default `configuration.requestTimeout`),
    /// not the upgraded connection's life. Disposing before the 101
    /// cancels as `send` does.
    public func upgrade(_ request: HTTPRequest, to protocolName: String, timeout: Duration? = nil) -> Single<HTTPClientUpgrade> {
        base.upgrade(request, to: protocolName, timeout: timeout)
    }
}
