import CoreMetrics
import HTTPTypes
import Prometheus
import RxCore
import RxUV
import RxUVHTTP
import RxUVServiceLifecycle

/// What a program records through swift-metrics, in Prometheus's text
/// format: the `/metrics` answer of `http-server`, and of kv-server's and
/// statsd-agg's `--metrics-port`.
public struct PrometheusEndpoint: Sendable {
    /// The registry the metrics are kept in.
    public let registry: PrometheusCollectorRegistry

    /// A registry, and the swift-metrics factory that records into it (to
    /// bootstrap alone, or beside a program's own backend through
    /// `MultiplexMetricsHandler`).
    public init() {
        registry = PrometheusCollectorRegistry()
    }

    /// The factory that records into `registry`.
    public var factory: any MetricsFactory {
        PrometheusMetricsFactory(registry: registry)
    }

    /// The answer to `GET /metrics`: every metric, in the text format
    /// version 0.0.4.
    public func response() -> HTTPServerResponse {
        var text: [UInt8] = []
        registry.emit(into: &text)
        return HTTPServerResponse(
            status: .ok, headerFields: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .bytes(ByteBuffer(text)))
    }

    /// `GET /metrics` and `GET /healthz` (`ok`), for a program whose main
    /// protocol is not HTTP.
    public var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/metrics") { _ in .just(response()) }
        router.get("/healthz") { _ in .just(.text("ok\n")) }
        return router
    }

    /// The service of a `/metrics` and `/healthz` server on `host`:`port`
    /// on `daemon`'s loops, drained with the rest; prints
    /// `PROGRAM: metrics on ADDRESS` once it listens.
    public func service(on daemon: LoopGroupService, host: String, port: Int, program: String, onStart: @escaping @Sendable (Server) -> Void = { _ in }) -> ServerService {
        var options = ServerOptions()
        options.metricsLabel = "metrics"
        return ServerService(
            daemon.group.rx.serveHTTP(host: host, port: port, options: options, handler: router.handler),
            drainedBy: daemon, name: "metrics " + Endpoint.format(host: host, port: port)
        ) { server in
            print("\(program): metrics on \(server.address)")
            onStart(server)
        }
    }
}
