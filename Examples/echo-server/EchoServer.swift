import ArgumentParser
import ExampleSupport
import RxCore
import RxUV
import RxUVServiceLifecycle
import RxUVTLS
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
            second signal ends at once. SIGHUP prints the counters (and, with TLS, \
            reads the certificate and key again for new connections). With \
            --tls-cert and --tls-key it speaks TLS 1.2 and 1.3. Exits 1 when it \
            cannot listen or load the certificate.
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

    @Option(help: "Serve TLS with this PEM certificate chain (leaf first); needs --tls-key.")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1.")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
        guard threads >= 1 else {
            throw ValidationError("--threads must be at least 1.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("echo-server")
        let certificate = tlsCert ?? ""
        let tls = try tlsCert.map { certificate in
            try TLSContext(configuration: .server(identity: TLSIdentity(certificateChain: .file(certificate), privateKey: .file(tlsKey ?? ""))))
        }
        let group = try LoopGroup(threads: threads, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let echoed = EchoedBytes()
        let started = Mutex<Server?>(nil)

        var options = ServerOptions()
        options.maxConnections = maxConnections
        options.idleTimeout = idleTimeout.isZero ? nil : idleTimeout.duration
        let serve =
            if let tls {
                group.rx.serve(host: host, port: port, tls: tls, options: options) { echo($0, counting: echoed) }
            } else {
                group.rx.serve(host: host, port: port, options: options) { echo($0, counting: echoed) }
            }
        // SIGHUP prints the counters. Watched from the start, on the first
        // loop, before the server listens there: a SIGHUP that follows
        // "listening" is never the default one, which would end the process.
        daemon.shutdown.add(
            group.loops[0].rx.signal(SIGHUP).subscribe(onNext: { _ in
                guard let server = started.withLock({ $0 }) else { return }
                if let tls {
                    do {
                        try tls.reload()
                        print("echo-server: reloaded \(certificate)")
                    } catch {
                        logger.error("cannot reload the certificate; keeping the one in use", metadata: ["error": "\(error)"])
                    }
                }
                print("echo-server: \(server.connectionCount) open, \(server.servedCount) served, \(server.refusedCount) refused, \(echoed.total) bytes echoed")
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
            print("echo-server: stopped; served \(Console.count(server.servedCount, "connection")), echoed \(Console.count(echoed.total, "byte"))")
        }
    }
}

/// One connection's echo, on its own loop: read until the server quiesces,
/// write each read back (every write is queued at once, so a client that
/// stops reading fills the connection's watermark and reading pauses); a
/// reset or a failed TLS handshake ends this connection only.
private func echo<Connection: ByteStream>(_ served: ServedConnection<Connection>, counting echoed: EchoedBytes) -> Completable {
    served.connection.rx.data
        .take(until: served.quiesce)
        .flatMap { bytes in
            served.connection.write(bytes).asObservable().do(onCompleted: { echoed.add(bytes.count) })
        }
        .catch { _ in .empty() }
        .asCompletable()
}

/// Bytes echoed, over every loop.
private final class EchoedBytes: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ bytes: Int) {
        count.add(bytes, ordering: .relaxed)
    }

    var total: Int {
        count.load(ordering: .relaxed)
    }
}
