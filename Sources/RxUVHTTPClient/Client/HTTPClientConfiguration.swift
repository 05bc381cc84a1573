import CoreMetrics
import HTTPTypes
import RxUVHTTP
import RxUVHTTP2
import RxUVTLS
import Tracing

/// How an `HTTPClient` connects, pools, waits and reads. The defaults suit
/// a daemon that calls a few hosts: eight connections a host, a minute of
/// idle keep-alive, ten seconds to connect, thirty to the response's head,
/// no bound on the whole exchange.
public struct HTTPClientConfiguration: Sendable {
    /// At most this many connections to one scheme, host and port at once
    /// (1 or more); requests beyond them wait in the host's queue.
    public var maxConnectionsPerHost: Int
    /// At most this many requests wait for a connection to one host; the
    /// next fails with `HTTPClientError.queueFull`.
    public var maxQueuedRequestsPerHost: Int
    /// A kept-alive connection unused this long is closed; `.zero` closes
    /// each connection after its exchange (no reuse).
    public var idleTimeout: Duration
    /// The TCP connect (and the name lookup before it) and, for `https`, the
    /// TLS handshake must end within this.
    public var connectTimeout: Duration
    /// The response's head must arrive within this of the request's head
    /// going out; `nil` for no bound.
    public var headTimeout: Duration?
    /// The whole exchange, from `send` to the end of the response's body,
    /// must end within this; `nil` (the default) for no bound. A request
    /// can set its own (`send(_:body:timeout:)`).
    public var requestTimeout: Duration?
    /// A request with `Expect: 100-continue` sends its body after the
    /// server's `100 Continue`, or after this long without an answer.
    public var continueTimeout: Duration
    /// The bytes of a response's body held before its reader subscribes;
    /// beyond them the connection stops reading until it does.
    public var responseBufferSize: Int
    /// The limits the response decoder enforces (the head, the fields, a
    /// body's length).
    public var limits: HTTPLimits
    /// Fields every request carries unless it has its own of the same name
    /// (by default `User-Agent: RxUV`).
    public var defaultHeaderFields: HTTPFields
    /// How `https` connections are made: the trust roots and checks, a
    /// client certificate. Its `applicationProtocols` are set by
    /// `httpVersions` (ALPN `h2` and `http/1.1`).
    public var tls: TLSConfiguration
    /// The versions of HTTP the client speaks (by default both): with
    /// both, an `https` connection speaks HTTP/2 when the server's ALPN
    /// agrees on `h2` (one connection a host then carries every request,
    /// up to the server's concurrent-stream limit, and more wait in the
    /// queue), HTTP/1.1 otherwise, and `http` speaks HTTP/1.1. With
    /// `[.http2]` alone, `http` speaks HTTP/2 with prior knowledge (`h2c`)
    /// and `https` requires ALPN `h2`. An upgrade (`rx.upgrade`, a
    /// WebSocket) always goes over HTTP/1.1.
    public var httpVersions: HTTPVersions
    /// Whether responses are asked for compressed and inflated (by default
    /// not).
    public var decompression: HTTPDecompression
    /// Whether redirects are followed, and how far (by default up to five,
    /// never from `https` to `http`).
    public var redirects: HTTPRedirectPolicy
    /// A request that fails on a reused connection before any byte of its
    /// response arrived (the server closed the connection as the request
    /// went out) is sent once more on a new connection, when its method is
    /// idempotent and its body can be sent again (none, bytes, a file).
    public var retriesOnStaleConnection: Bool
    /// The backend the pool's metrics go to; `nil`: the one bootstrapped
    /// with `MetricsSystem`.
    public var metricsFactory: (any MetricsFactory)?
    /// The metrics' `client` dimension.
    public var metricsLabel: String
    /// The tracer each exchange gets a client span from, its context
    /// injected into the request's fields: by default the one bootstrapped
    /// with `InstrumentationSystem.bootstrap` when this configuration was
    /// made, or `nil` when none was (nothing traced).
    public var tracer: (any Tracer)? {
        get { tracing?.tracer }
        set { tracing = newValue.map(HTTPTracer.init) }
    }
    /// `tracer`, held by reference.
    package var tracing: HTTPTracer?

    /// A configuration; every argument has the default described above.
    public init(
        maxConnectionsPerHost: Int = 8,
        maxQueuedRequestsPerHost: Int = 1024,
        idleTimeout: Duration = .seconds(60),
        connectTimeout: Duration = .seconds(10),
        headTimeout: Duration? = .seconds(30),
        requestTimeout: Duration? = nil,
        continueTimeout: Duration = .seconds(1),
        responseBufferSize: Int = 256 * 1024,
        limits: HTTPLimits = HTTPLimits(maxBodyLength: .max),
        defaultHeaderFields: HTTPFields = [.userAgent: "RxUV"],
        tls: TLSConfiguration = .client(),
        httpVersions: HTTPVersions = [.http1, .http2],
        decompression: HTTPDecompression = .disabled,
        redirects: HTTPRedirectPolicy = .default,
        retriesOnStaleConnection: Bool = true,
        metricsFactory: (any MetricsFactory)? = nil,
        metricsLabel: String = "default"
    ) {
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.maxQueuedRequestsPerHost = max(0, maxQueuedRequestsPerHost)
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.headTimeout = headTimeout
        self.requestTimeout = requestTimeout
        self.continueTimeout = continueTimeout
        self.responseBufferSize = responseBufferSize
        self.limits = limits
        self.defaultHeaderFields = defaultHeaderFields
        self.tls = tls
        self.httpVersions = httpVersions.isEmpty ? [.http1] : httpVersions
        self.decompression = decompression
        self.redirects = redirects
        self.retriesOnStaleConnection = retriesOnStaleConnection
        self.metricsFactory = metricsFactory
        self.metricsLabel = metricsLabel
        self.tracing = HTTPTracer.bootstrapped
    }
}
