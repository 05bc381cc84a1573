import CoreMetrics

/// What a `Server` records about one loop's connections, through
/// swift-metrics, with the dimensions `server` (`ServerOptions.metricsLabel`,
/// else the address) and `loop` (the loop's index):
///
/// | label | kind | |
/// | --- | --- | --- |
/// | `rxuv_server_connections_active` | gauge | connections open on the loop |
/// | `rxuv_server_connections_accepted` | counter | connections accepted and placed on the loop |
/// | `rxuv_server_connections_refused` | counter | connections refused above `maxConnections` (on the accepting loop) |
/// | `rxuv_server_connections_reset` | counter | connections the server reset (a drain's deadline, a stop, an idle one that would not close) |
/// | `rxuv_server_connections_idle_closed` | counter | connections closed by the idle timeout |
/// | `rxuv_server_bytes_read` | counter | bytes read from the connections |
/// | `rxuv_server_bytes_written` | counter | bytes the kernel took for the connections |
///
/// and, for the whole server (dimension `server`), the timer
/// `rxuv_server_drain_duration`: from the start of a drain to its last
/// connection gone. Each handle is made once, when the server starts; a
/// counter's increment is one call to the backend's handler.
final class ServerMetrics: Sendable {
    let active: Gauge
    let accepted: Counter
    let refused: Counter
    let reset: Counter
    let idleClosed: Counter
    let bytesRead: Counter
    let bytesWritten: Counter

    /// The metrics of loop `index` of the server `server`, made by `factory`.
    init(server: String, loop index: Int, factory: any MetricsFactory) {
        let dimensions = [("server", server), ("loop", "\(index)")]
        active = Gauge(label: "rxuv_server_connections_active", dimensions: dimensions, factory: factory)
        accepted = Counter(label: "rxuv_server_connections_accepted", dimensions: dimensions, factory: factory)
        refused = Counter(label: "rxuv_server_connections_refused", dimensions: dimensions, factory: factory)
        reset = Counter(label: "rxuv_server_connections_reset", dimensions: dimensions, factory: factory)
        idleClosed = Counter(label: "rxuv_server_connections_idle_closed", dimensions: dimensions, factory: factory)
        bytesRead = Counter(label: "rxuv_server_bytes_read", dimensions: dimensions, factory: factory)
        bytesWritten = Counter(label: "rxuv_server_bytes_written", dimensions: dimensions, factory: factory)
    }

    /// The timer of the server's drains.
    static func drainDuration(server: String, factory: any MetricsFactory) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: "rxuv_server_drain_duration", dimensions: [("server", server)], factory: factory)
    }
}
