import CoreMetrics
import Logging
import RxCore

/// How a `Server` listens, spreads and limits its connections.
public struct ServerOptions: Sendable {
    /// How accepted connections are spread over the loops. Default:
    /// `.roundRobin`.
    public var distribution: ConnectionDistribution = .roundRobin
    /// The most connections open at once, over every loop; a connection
    /// above it is refused at once (accepted and reset, so the client sees
    /// `ECONNRESET` instead of waiting), and the count never exceeds it.
    /// `nil` (the default): no limit.
    public var maxConnections: Int?
    /// A connection that neither receives nor finishes a write for this long
    /// is closed (checked every quarter of it, on a timer of each loop's:
    /// `uv_timer_start`; whole milliseconds). `nil` (the default): never.
    public var idleTimeout: Duration?
    /// The listening socket's queue of connections not yet accepted (the
    /// kernel caps it at `net.core.somaxconn`). Default 4096.
    public var backlog = 4096
    /// Where the server's diagnostics go: a connection it refused or could
    /// not open, a handler that failed, an accept that failed, at level
    /// `error` with the server's address, the peer and the loop as
    /// metadata. `nil` (the default): the logger of the loop involved
    /// (`Loop.logger`).
    public var logger: Logger?
    /// Whether the server records its metrics through swift-metrics
    /// (connections active, accepted, refused, reset and idle-closed, bytes
    /// read and written, per loop; drain duration): see the labels in the
    /// `Server` documentation. Default `true`: recorded to the bootstrapped
    /// backend, a no-op until one is.
    public var recordsMetrics = true
    /// The backend the metrics go to; `nil` (the default): the one
    /// bootstrapped (`MetricsSystem.factory`).
    public var metricsFactory: (any MetricsFactory)?
    /// The metrics' `server` dimension; `nil` (the default): the address the
    /// server listens on (`127.0.0.1:7000`).
    public var metricsLabel: String?

    /// The defaults.
    public init() {}
}

/// How a `Server` spreads accepted connections over its loops.
public enum ConnectionDistribution: Sendable, Hashable {
    /// One listening socket, accepted on the first loop; each connection
    /// goes to the next loop in turn (its descriptor is opened there with
    /// `uv_tcp_open`). Even, whatever the clients do.
    case roundRobin
    /// Like `.roundRobin`, but each connection goes to the loop with the
    /// fewest open connections (ties: the first).
    case leastConnections
    /// One listening socket per loop, all bound to the address with
    /// `SO_REUSEPORT`: the kernel spreads connections by a hash of their
    /// addresses, with no hop between loops; uneven for few clients. Before
    /// Linux 5.14, connections queued on a listener drop when it closes.
    case reusePort
}
