import Tracing

/// How an HTTP server treats its connections: the parser's limits, the
/// timeouts against slow and idle clients, and how many requests one
/// connection may make.
public struct HTTPServerOptions: Sendable {
    /// The request decoder's limits (request line, head, header count,
    /// body); each refusal is answered with the status the RFC names.
    public var limits: HTTPLimits
    /// From a request's first byte until its head is whole; a client slower
    /// than this (slowloris) is answered `408 Request Timeout` and closed.
    public var headTimeout: Duration
    /// How long a connection may wait for its next request with no byte of
    /// it sent; then it is closed, without an answer.
    public var idleTimeout: Duration
    /// After this many requests a connection is answered with
    /// `Connection: close` and closed (nginx's `keepalive_requests`).
    public var maxRequestsPerConnection: Int
    /// Request body bytes held for a handler that has not read its body
    /// yet; beyond it the connection stops reading until the handler
    /// reads (backpressure), so a client that uploads to a handler that
    /// does not read costs this much memory, not its upload.
    public var bodyBufferSize: Int
    /// The `Server` field of every response; `nil` writes none.
    public var serverName: String?
    /// Called with each response as its head is written (refusals
    /// included), on the connection's loop thread: where a server counts
    /// and times its requests. It runs on the request's path: keep it
    /// short, and hand anything slow to another thread. `nil` (the
    /// default): nothing is measured.
    public var onResponse: (@Sendable (HTTPResponseRecord) -> Void)?
    /// The tracer each request gets a server span from
    /// (`HTTPServerRequest.span`): by default the one bootstrapped with
    /// `InstrumentationSystem.bootstrap` when these options were made, or
    /// `nil` when none was (nothing traced).
    public var tracer: (any Tracer)? {
        get { tracing?.tracer }
        set { tracing = newValue.map(HTTPTracer.init) }
    }
    /// `tracer`, held by reference.
    package var tracing: HTTPTracer?

    /// Defaults: `HTTPLimits()`, a 10 s head timeout, a 60 s idle timeout,
    /// 1,000 requests a connection, a 64 KiB body buffer, no `Server`
    /// field, no response hook; the bootstrapped tracer, if any.
    public init(
        limits: HTTPLimits = HTTPLimits(), headTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        maxRequestsPerConnection: Int = 1000, bodyBufferSize: Int = 64 * 1024, serverName: String? = nil,
        onResponse: (@Sendable (HTTPResponseRecord) -> Void)? = nil
    ) {
        self.limits = limits
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.maxRequestsPerConnection = max(maxRequestsPerConnection, 1)
        self.bodyBufferSize = max(bodyBufferSize, 0)
        self.serverName = serverName
        self.onResponse = onResponse
        self.tracing = HTTPTracer.bootstrapped
    }
}
