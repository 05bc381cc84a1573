import CoreMetrics

/// What an `HTTPClient` records through swift-metrics, with the dimension
/// `client` (`HTTPClientConfiguration.metricsLabel`):
///
/// | label | kind | |
/// | --- | --- | --- |
/// | `rxuv_http_client_connections_open` | gauge | connections open, idle or busy |
/// | `rxuv_http_client_connections_idle` | gauge | connections idle in their pool |
/// | `rxuv_http_client_requests_queued` | gauge | requests waiting for a connection |
/// | `rxuv_http_client_requests_retried` | counter | requests sent again after a stale connection |
///
/// The gauges move by one per change (`Meter`s, added to and taken from).
final class HTTPClientMetrics: Sendable {
    let open: Meter
    let idle: Meter
    let queued: Meter
    let retried: Counter

    init(label: String, factory: any MetricsFactory) {
        let dimensions = [("client", label)]
        open = Meter(label: "rxuv_http_client_connections_open", dimensions: dimensions, factory: factory)
        idle = Meter(label: "rxuv_http_client_connections_idle", dimensions: dimensions, factory: factory)
        queued = Meter(label: "rxuv_http_client_requests_queued", dimensions: dimensions, factory: factory)
        retried = Counter(label: "rxuv_http_client_requests_retried", dimensions: dimensions, factory: factory)
    }
}
