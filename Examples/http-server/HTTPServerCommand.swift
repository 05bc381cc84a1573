import ArgumentParser
import CoreMetrics
import ExampleSupport
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVServiceLifecycle
import RxUVTLS
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `http-server`: HTTP/1.1 (or HTTP/2, `--http2`) on every core: static files, a JSON document,
/// an echo, Prometheus metrics and a health check.
@main
struct HTTPServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-server",
        abstract: "Serve HTTP/1.1 (or HTTP/2 with --http2): static files, JSON, /metrics and /healthz.",
        discussion: """
            Routes: GET /plaintext (hello), GET /json (a 1 KiB JSON document), \
            POST /echo (the body back, up to 1 MiB), POST /upload (the body's \
            length, read with backpressure, up to --max-body), GET /static/PATH (files under \
            --root, with Range and If-Modified-Since), GET /metrics (every request \
            counted and timed, and the server's connections, in Prometheus's text \
            format; --no-request-metrics leaves the server's connections only), \
            GET /healthz (ok). Connections are spread over --threads loops. \
            SIGINT or SIGTERM stops accepting, answers the requests in hand with \
            Connection: close for up to 2 seconds, prints a summary and exits 0; a \
            second signal ends at once. Exits 1 when it cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 8080

    @Option(help: "Loops (threads) to spread connections over; default: one per core.")
    var threads = LoopGroup.coreCount

    @Option(help: "Serve the files under this folder at /static/.")
    var root: String?

    @Option(help: "Send requests under /proxy/ on to this http or https URL, streaming both ways.")
    var upstream: String?

    @Option(help: "Refuse (reset at once) connections beyond this many open ones.")
    var maxConnections: Int?

    @Option(help: "Answer 408 and close when a request's head takes longer than this.")
    var headTimeout = Interval(argument: "10s")!

    @Option(help: "Close a keep-alive connection that sends no request for this long.")
    var idleTimeout = Interval(argument: "60s")!

    @Option(help: "The largest request body in bytes (POST /echo takes at most 1 MiB of it).")
    var maxBody = 4 << 30

    @Flag(
        inversion: .prefixedNo,
        help: """
            Count and time every request (http_requests_total, \
            http_request_duration_seconds); off, /metrics keeps the server's \
            connection metrics and a request costs no clock reads or histogram update.
            """)
    var requestMetrics = true

    @Flag(
        help: """
            Speak HTTP/2 too, with the same routes: over cleartext, HTTP/2 with prior knowledge \
            (h2c: curl --http2-prior-knowledge, h2load) or HTTP/1.1 as each client's first \
            bytes speak; with --tls-cert, as each client's ALPN asks.
            """)
    var http2 = false

    @Option(help: "Serve HTTPS with this PEM certificate chain (leaf first); needs --tls-key.")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(help: "Report a loop that has not turned for this long as stalled (0: no watchdog).")
    var stallThreshold = Interval(argument: "500ms")!

    @Option(
        help: """
            Answer 503 (Retry-After: 1) to requests on a loop busier than this share             (0 to 1) over the last second; /metrics and /healthz are always answered.
            """)
    var shedAbove: Double?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        guard threads >= 1 else {
            throw ValidationError("--threads must be at least 1.")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1.")
        }
        guard maxBody >= 0 else {
            throw ValidationError("--max-body must not be negative.")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
        if let shedAbove, !(0...1).contains(shedAbove) {
            throw ValidationError("--shed-above must be between 0 and 1.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("http-server")
        let prometheus = PrometheusEndpoint()
        MetricsSystem.bootstrap(prometheus.factory)
        // The watchdog reports stalls and records every loop's health
        // (rxuv_loop_*) each second, which /metrics shows.
        let watchdog = LoopWatchdog.Options(
            stallThreshold: stallThreshold.nanoseconds == 0 ? nil : .nanoseconds(stallThreshold.nanoseconds), metricsInterval: .seconds(1))
        let group = try LoopGroup(threads: threads, logger: logger, watchdog: watchdog)
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let started = Mutex<Server?>(nil)

        var router = prometheus.router
        router.get("/plaintext") { _ in .just(Self.plaintext) }
        router.get("/json") { _ in .just(Self.json) }
        router.post("/echo") { request in
            request.body.collect(upTo: 1 << 20).map { body in
                HTTPServerResponse(headerFields: [.contentType: request.head.headerFields[.contentType] ?? "application/octet-stream"], body: .bytes(body))
            }
        }
        router.post("/upload") { request async throws -> HTTPServerResponse in
            // Read as an AsyncSequence: the connection reads only as fast
            // as this loop takes the pieces.
            var count = 0
            for try await piece in request.body.values {
                count += piece.count
            }
            return .text("\(count)\n")
        }
        if let root {
            let files = StaticFiles(root: root)
            router.get("/static/*") { request in files.answer(request) }
        }
        if let upstream {
            let proxy = try ReverseProxy(upstream: upstream, group: group)
            for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch, .options] {
                router.add(method, "/proxy/*") { request async throws in try await proxy.answer(request) }
                router.add(method, "/proxy") { request async throws in try await proxy.answer(request) }
            }
            // In-flight proxied requests end before the loops do.
            daemon.shutdown.add(drain: proxy.client.shutdown())
        }
        var handler = router.handler
        if let shedAbove {
            let shedding = LoadShedding(group: group, bound: shedAbove)
            handler = shedding.guarding(handler)
            daemon.shutdown.add(shedding.watching)
        }

        var options = ServerOptions()
        options.maxConnections = maxConnections
        let http = HTTPServerOptions(
            limits: HTTPLimits(maxBodyLength: maxBody), headTimeout: .nanoseconds(headTimeout.nanoseconds),
            idleTimeout: .nanoseconds(idleTimeout.nanoseconds), onResponse: requestMetrics ? RequestMetrics().record : nil)
        let serving: Single<Server>
        if let tlsCert, let tlsKey {
            var configuration = TLSConfiguration.server(identity: TLSIdentity(certificateChain: .file(tlsCert), privateKey: .file(tlsKey)))
            configuration.applicationProtocols = http2 ? ["h2", "http/1.1"] : ["http/1.1"]
            let context = try TLSContext(configuration: configuration)
            serving = group.rx.serveHTTPS(
                host: host, port: port, tls: context, versions: http2 ? [.http1, .http2] : [.http1], options: options, http: http,
                handler: handler)
        } else if http2 {
            serving = group.rx.serveHTTP(host: host, port: port, versions: [.http1, .http2], options: options, http: http, handler: handler)
        } else {
            serving = group.rx.serveHTTP(host: host, port: port, options: options, http: http, handler: handler)
        }
        let server = ServerService(
            serving,
            drainedBy: daemon, name: Endpoint.format(host: host, port: port)
        ) { server in
            started.withLock { $0 = server }
            print("http-server: listening on \(server.address)")
            _ = daemon.shutdown.requested.subscribe(onNext: { signum in
                print("http-server: \(signum == SIGINT ? "SIGINT" : "SIGTERM"): no new connections, closing \(server.connectionCount) open")
            })
        }
        try await daemon.runDaemon(with: [server], logger: logger)
        if let server = started.withLock({ $0 }) {
            print("http-server: stopped; served \(Console.count(server.servedCount, "connection"))")
        }
    }

    /// `hello`, the plaintext benchmark's answer.
    static let plaintext = HTTPServerResponse.text("hello")

    /// A 1 KiB JSON document (`{"message":"xxx…"}`), the JSON benchmark's
    /// answer: the same bytes nginx and Hummingbird send in
    /// Benchmarks/Scripts/httpbench.py.
    static let json = HTTPServerResponse(
        headerFields: [.contentType: "application/json"],
        body: .string("{\"message\":\"" + String(repeating: "x", count: 1010) + "\"}"))
}
