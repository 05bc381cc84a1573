import ArgumentParser
import CoreMetrics
import ExampleSupport
import RxCore
import RxUV
import RxUVServiceLifecycle
import RxUVTLS
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `kv-server`: a key-value and pub/sub server that speaks Redis's protocol
/// (RESP2), so redis-cli, redis-benchmark and every Redis client library
/// can talk to it.
@main
struct KVServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kv-server",
        abstract: "A key-value and pub/sub server that speaks Redis's protocol (RESP2).",
        discussion: """
            Commands: PING ECHO QUIT SELECT DBSIZE FLUSHDB FLUSHALL COMMAND INFO GET SET \
            (EX PX NX XX GET KEEPTTL) GETDEL MGET MSET DEL EXISTS INCR INCRBY DECR DECRBY \
            APPEND STRLEN EXPIRE PEXPIRE TTL PTTL PERSIST KEYS PUBLISH SUBSCRIBE UNSUBSCRIBE \
            PSUBSCRIBE PUNSUBSCRIBE, with Redis's replies and error texts. One keyspace \
            (database 0) is shared by the --threads loops. SIGINT or SIGTERM stops accepting, \
            lets each client finish the commands it sent (up to 2 seconds), closes every \
            connection and exits 0; a second signal ends at once. Exits 1 when it cannot listen. \
            With --tls-port it also serves TLS, with Redis's own flags (--tls-cert-file, \
            --tls-key-file, --tls-ca-cert-file, --tls-auth-clients), so redis-cli --tls and \
            Redis clients with TLS on connect unchanged; SIGHUP reads the certificate files again.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port to listen on; 0 lets the system choose.")
    var port = 6379

    @Option(name: .customLong("unixsocket"), help: "Also listen on this Unix-domain socket path.")
    var unixSocket: String?

    @Option(help: "Loops (threads) to spread connections over. The keyspace is shared, behind one lock.")
    var threads = 1

    @Option(name: .customLong("maxclients"), help: "Refuse clients beyond this many with Redis's error.")
    var maxClients = 10_000

    @Option(help: "Close a subscriber when this many bytes of messages wait for it to read (Redis: 32 MiB).")
    var pubsubOutputLimit = 32 * 1024 * 1024

    @Option(help: "Also serve TLS on this port (0 lets the system choose); needs --tls-cert-file and --tls-key-file.")
    var tlsPort: Int?

    @Option(help: "The PEM certificate chain of the TLS port (leaf first).")
    var tlsCertFile: String?

    @Option(help: "The PEM private key of --tls-cert-file.")
    var tlsKeyFile: String?

    @Option(help: "The CA certificates (PEM) that client certificates must chain to.")
    var tlsCaCertFile: String?

    @Option(help: "Client certificates on the TLS port: yes (required, Redis's default), optional, or no.")
    var tlsAuthClients: ClientAuthentication = .yes

    @Option(help: "Also serve /metrics (Prometheus's text format) and /healthz over HTTP on this port (0 lets the system choose).")
    var metricsPort: Int?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        guard threads >= 1 else {
            throw ValidationError("--threads must be at least 1.")
        }
        guard maxClients >= 1 else {
            throw ValidationError("--maxclients must be at least 1.")
        }
        if let metricsPort, !(0...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535.")
        }
        if let tlsPort {
            guard (0...65_535).contains(tlsPort) else {
                throw ValidationError("--tls-port must be between 0 and 65535.")
            }
            guard tlsCertFile != nil, tlsKeyFile != nil else {
                throw ValidationError("--tls-port needs --tls-cert-file and --tls-key-file.")
            }
            guard tlsAuthClients == .no || tlsCaCertFile != nil else {
                throw ValidationError("--tls-auth-clients \(tlsAuthClients.rawValue) needs --tls-ca-cert-file.")
            }
        }
        guard pubsubOutputLimit >= 1024 else {
            throw ValidationError("--pubsub-output-limit must be at least 1024.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("kv-server")
        // Every command's calls and durations go through swift-metrics to
        // kv-server's own backend, which INFO commandstats reads.
        // With --metrics-port they also go to a Prometheus registry.
        let commandStats = CommandStats()
        let prometheus = metricsPort.map { _ in PrometheusEndpoint() }
        if let prometheus {
            MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [commandStats, prometheus.factory]))
        } else {
            MetricsSystem.bootstrap(commandStats)
        }
        // With --metrics-port the watchdog records every loop's health
        // (rxuv_loop_*) each second as well as reporting stalls.
        let group = try LoopGroup(threads: threads, logger: logger, watchdog: LoopWatchdog.Options(metricsInterval: prometheus == nil ? nil : .seconds(1)))
        let context = ServerContext(
            limits: RESPLimits(), maxClients: maxClients, pubSubOutputLimit: pubsubOutputLimit, commandStats: commandStats)
        let daemon = LoopGroupService(group, deadline: .seconds(2), signals: [SIGINT, SIGTERM])
        let shutdown = daemon.shutdown
        let listening = Atomic<Int>(1 + (unixSocket == nil ? 0 : 1) + (tlsPort == nil ? 0 : 1) + (metricsPort == nil ? 0 : 1))
        let tls = try tlsPort.map { _ in try TLSContext(configuration: tlsConfiguration) }

        _ = shutdown.requested.subscribe(onNext: { _ in
            print("kv-server: shutting down, \(Console.count(context.clientCount, "client")) connected")
        })
        let ready: @Sendable () -> Void = {
            if listening.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
                print("kv-server: ready")
            }
        }

        // The active half of expiry, on the first loop: 10 sweeps a second.
        shutdown.add(
            group.loops[0].rx.timer(after: .milliseconds(100), repeating: .milliseconds(100))
                .subscribe(onNext: { _ in _ = context.keyspace.sweep() }))

        let handler: @Sendable (any ByteStream, Loop, Observable<Void>) -> Completable = { connection, loop, quiesce in
            Session(id: context.newSessionID(), connection: connection, loop: loop, server: context, quiesce: quiesce).serve()
        }
        let started: @Sendable (Server) -> Void = { server in
            if server.address.port != 0 {
                context.port.store(server.address.port, ordering: .relaxed)
            }
            print("kv-server: listening on \(server.address)")
            ready()
        }
        let startedTLS: @Sendable (Server) -> Void = { server in
            print("kv-server: listening for TLS on \(server.address)")
            ready()
        }
        var servers = [
            ServerService(
                group.rx.serve(host: host, port: port) { handler($0.connection, $0.loop, $0.quiesce) },
                drainedBy: daemon, name: Endpoint.format(host: host, port: port), onStart: started)
        ]
        if let unixSocket {
            servers.append(
                ServerService(
                    group.rx.serve(unixPath: unixSocket, mode: 0o700) { handler($0.connection, $0.loop, $0.quiesce) },
                    drainedBy: daemon, name: "unix:\(unixSocket)", onStart: started))
        }

        if let tlsPort, let tls {
            servers.append(
                ServerService(
                    group.rx.serve(host: host, port: tlsPort, tls: tls) { handler($0.connection, $0.loop, $0.quiesce) },
                    drainedBy: daemon, name: Endpoint.format(host: host, port: tlsPort), onStart: startedTLS))
            // SIGHUP: the certificate files again, for new connections.
            shutdown.add(
                group.loops[0].rx.signal(SIGHUP).subscribe(onNext: { _ in
                    do {
                        try tls.reload()
                        print("kv-server: reloaded the TLS certificate")
                    } catch {
                        logger.error("cannot reload the TLS certificate; keeping the one in use", metadata: ["error": "\(error)"])
                    }
                }))
        }

        if let prometheus, let metricsPort {
            servers.append(prometheus.service(on: daemon, host: host, port: metricsPort, program: "kv-server") { _ in ready() })
        }

        // Under a ServiceGroup: SIGINT or SIGTERM drains every client,
        // then the loops close; a second signal ends the drain at once.
        try await daemon.runDaemon(with: servers, logger: logger)
        print("kv-server: stopped; \(Console.count(context.connectionsReceivedCount, "connection")) served")
    }

    /// The TLS port's configuration, from Redis's flags.
    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.server(
            identity: TLSIdentity(certificateChain: .file(tlsCertFile ?? ""), privateKey: .file(tlsKeyFile ?? "")))
        if let tlsCaCertFile {
            configuration.trustRoots = .certificates(.file(tlsCaCertFile))
        }
        configuration.peerVerification =
            switch tlsAuthClients {
            case .yes: .required
            case .optional: .ifPresented
            case .no: .none
            }
        return configuration
    }
}

/// `--tls-auth-clients`: Redis's values.
enum ClientAuthentication: String, ExpressibleByArgument, CaseIterable {
    case yes
    case optional
    case no
}
