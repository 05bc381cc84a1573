import ArgumentParser
import ExampleSupport
import RxCore
import RxUV
import RxUVServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `echo-server`: a TCP echo server on every core, one handler per connection.
@main
struct EchoServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo-server",
        abstract: "Echo every byte a TCP client sends back to it.",
        discussion: """
            Connections are spread over --threads loops, one thread each. SIGINT or \
            SIGTERM stops accepting, lets each connection finish what it was echoing \
            for up to 2 seconds, resets what is left, prints a summary and exits 0; a \
            second signal ends at once. SIGHUP prints the counters. Exits 1 when it \
            cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 7000

    @Option(help: "Refuse (reset at once) connections beyond this many open ones.")
    var maxConnections: Int?

    @Option(help: "Close a connection that sends nothing for this long (0 disables).")
    var idleTimeout = Interval(argument: "60s")!

    @Option(help: "Loops (threads) to spread connections over; default: one per core.")
    var threads = LoopGroup.coreCount

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1.")
        }
        guard threads >= 1 else {
            throw ValidationError("--threads must be at least 1.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("echo-server")
        let group = try LoopGroup(threads: threads, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let echoed = Atomic<Int>(0)
        let started = Mutex<Server?>(nil)

        var options = ServerOptions()
        options.maxConnections = maxConnections
        options.idleTimeout = idleTimeout.isZero ? nil : idleTimeout.rxInterval
        let serve = group.rx.serve(host: host, port: port, options: options) { served in
            // On the connection's own loop: read until the server quiesces,
            // write each read back (every write is queued at once, so a
            // client that stops reading fills the connection's watermark and
            // reading pauses); a reset ends this connection only.
            served.connection.rx.data
                .take(until: served.quiesce)
                .flatMap { bytes in
                    served.connection.write(bytes).asObservable().do(onCompleted: { echoed.add(bytes.count, ordering: .relaxed) })
                }
                .catch { _ in .empty() }
                .asCompletable()
        }
        // SIGHUP prints the counters. Watched from the start, on the first
        // loop, before the server listens there: a SIGHUP that follows
        // "listening" is never the default one, which would end the process.
        daemon.shutdown.add(
            group.loops[0].rx.signal(SIGHUP).subscribe(onNext: { _ in
                guard let server = started.withLock({ $0 }) else { return }
                print("echo-server: \(server.connectionCount) open, \(server.servedCount) served, \(server.refusedCount) refused, \(echoed.load(ordering: .relaxed)) bytes echoed")
            }))
        let server = ServerService(serve, drainedBy: daemon, name: Endpoint.format(host: host, port: port)) { server in
            started.withLock { $0 = server }
            print("echo-server: listening on \(server.address)")
            _ = daemon.shutdown.requested.subscribe(onNext: { signum in
                print("echo-server: \(signum == SIGINT ? "SIGINT" : "SIGTERM"): no new connections, closing \(server.connectionCount) open")
            })
        }

        // Under a ServiceGroup: the server drains on SIGINT or SIGTERM,
        // then the loops close; a second signal ends the drain at once.
        try await daemon.runDaemon(with: [server], logger: logger)
        if let server = started.withLock({ $0 }) {
            print("echo-server: stopped; served \(Console.count(server.servedCount, "connection")), echoed \(Console.count(echoed.load(ordering: .relaxed), "byte"))")
        }
    }
}
