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
/// counter's increment is one call to the backend's handler. The bytes are
/// added up on the loop thread and handed to their counters in batches of
/// at least `trafficBatch` bytes, and whatever is left when a connection
/// closes: one call per batch instead of two per read-and-write.
final class ServerMetrics: Sendable {
    let active: Gauge
    let accepted: Counter
    let refused: Counter
    let reset: Counter
    let idleClosed: Counter
    /// Bytes read and written on the loop, handed to their counters in
    /// batches: the loop's (the shard's and its connections' thread).
    private let traffic: LoopBound<Traffic>

    private struct Traffic {
        var read: BatchedCounter
        var written: BatchedCounter
    }

    /// The least bytes handed to a byte counter at once (but for a
    /// connection's last).
    static let trafficBatch = 16 * 1024

    /// The metrics of `loop`, the server `server`'s loop `index`, made by
    /// `factory`.
    init(server: String, loop: Loop, index: Int, factory: any MetricsFactory) {
        let dimensions = [("server", server), ("loop", "\(index)")]
        active = Gauge(label: "rxuv_server_connections_active", dimensions: dimensions, factory: factory)
        accepted = Counter(label: "rxuv_server_connections_accepted", dimensions: dimensions, factory: factory)
        refused = Counter(label: "rxuv_server_connections_refused", dimensions: dimensions, factory: factory)
        reset = Counter(label: "rxuv_server_connections_reset", dimensions: dimensions, factory: factory)
        idleClosed = Counter(label: "rxuv_server_connections_idle_closed", dimensions: dimensions, factory: factory)
        traffic = LoopBound(
            Traffic(
                read: BatchedCounter(Counter(label: "rxuv_server_bytes_read", dimensions: dimensions, factory: factory)),
                written: BatchedCounter(Counter(label: "rxuv_server_bytes_written", dimensions: dimensions, factory: factory))),
            loop: loop)
    }

    /// `count` bytes were read. Loop thread.
    @inline(__always)
    func read(_ count: Int) {
        traffic.value.read.add(count, batch: Self.trafficBatch)
    }

    /// The kernel took `count` written bytes. Loop thread.
    @inline(__always)
    func wrote(_ count: Int) {
        traffic.value.written.add(count, batch: Self.trafficBatch)
    }

    /// Hands the bytes not yet counted to their counters: a connection
    /// closed. Loop thread.
    func reportTraffic() {
        traffic.value.read.flush()
        traffic.value.written.flush()
    }

    /// The timer of the server's drains.
    static func drainDuration(server: String, factory: any MetricsFactory) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: "rxuv_server_drain_duration", dimensions: [("server", server)], factory: factory)
    }
}

/// A counter fed in batches: amounts add up here and reach the counter
/// once they come to a batch, or when flushed.
private struct BatchedCounter {
    private let counter: Counter
    private var unreported = 0

    init(_ counter: Counter) {
        self.counter = counter
    }

    /// Adds `amount`; hands the total to the counter once it reaches `batch`.
    @inline(__always)
    mutating func add(_ amount: Int, batch: Int) {
        unreported &+= amount
        if unreported >= batch {
            flush()
        }
    }

    /// Hands what is not yet counted to the counter.
    mutating func flush() {
        guard unreported > 0 else { return }
        counter.increment(by: unreported)
        unreported = 0
    }
}
