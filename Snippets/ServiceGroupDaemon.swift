// A daemon under swift-service-lifecycle's ServiceGroup, logging through
// swift-log and counting through swift-metrics: SIGINT or SIGTERM drains
// the server (its handlers told through `quiesce`), closes the loops and
// returns; a second signal ends the drain at once.

import Logging
import RxCore
import RxUV
import RxUVServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What the daemon and RxUV log goes to this logger's backend (standard
// error with swift-log's default one); each loop tags its entries `loop=N`.
let logger = Logger(label: "echo-daemon")
let group = try LoopGroup(threads: 2, logger: logger)

// The loops and the engine that drains them, watching the signals itself.
let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])

var options = ServerOptions()
options.maxConnections = 10_000
// rxuv_server_connections_active, _accepted, _refused, …, dimension server=echo.
options.metricsLabel = "echo"

let echo = group.rx.serve(host: "127.0.0.1", port: 7000, options: options) { served in
    served.connection.rx.data
        .take(until: served.quiesce) // the drain has begun: stop reading
        .flatMap { served.connection.write($0) }
        .catch { _ in .empty() }
        .asCompletable()
}
let server = ServerService(echo, drainedBy: daemon, name: "127.0.0.1:7000") { server in
    logger.info("listening on \(server.address)")
}

// Returns after the drain; a server that cannot listen logs why and throws.
try await daemon.run(with: [server], logger: logger)
logger.info("stopped")
