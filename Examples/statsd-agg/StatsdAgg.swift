import ArgumentParser
import CoreMetrics
import ExampleSupport
import Logging
import RxCore
import RxUV
import RxUVServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `statsd-agg`: a statsd aggregator. Metrics come in over UDP; every flush
/// interval their aggregates go out to Graphite and/or standard output.
@main
struct StatsdAgg: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statsd-agg",
        abstract: "Aggregate statsd metrics received over UDP and flush them to Graphite or standard output.",
        discussion: """
            Takes statsd's line protocol (name:value|type[|@rate], several lines a \
            datagram): counters (c), gauges (g, +N/-N change them), timers (ms, and h \
            histograms) and sets (s). Every --flush-interval the aggregates are written as \
            Graphite plaintext to --graphite (a new TCP connection each flush, as statsd \
            does) and/or as one JSON line to standard output (--stdout); then counters \
            reset to 0, timers and sets clear, and gauges keep their value. Bad lines are \
            counted (statsd.bad_lines_seen) and skipped. Messages go to standard error. \
            SIGINT or SIGTERM: stop receiving, flush once more, exit 0. Exits 1 when it \
            cannot bind.
            """
    )

    @Option(help: "The address to receive on.")
    var host = "127.0.0.1"

    @Option(help: "The UDP port to receive on; 0 lets the system choose.")
    var port = 8125

    @Option(help: "Time between flushes.")
    var flushInterval = Interval(argument: "10s")!

    @Option(help: "Send each flush to Graphite (plaintext protocol) at host:port.")
    var graphite: Endpoint?

    @Flag(help: "Write each flush to standard output as one JSON line.")
    var stdout = false

    @Option(help: "Timer percentiles, comma-separated (a negative one counts from the bottom).")
    var percentiles = Percentiles(argument: "50,90,99")!

    @Option(help: "The most metric names kept (counters and gauges keep theirs until the daemon stops); samples of new names past it are dropped and logged once per flush.")
    var maxNames = 100_000

    @OptionGroup var logging: LoggingOptions

    @Option(help: "Also serve /metrics (Prometheus's text format: its own counters) and /healthz over HTTP on this port (0 lets the system choose).")
    var metricsPort: Int?

    @Option(help: "The socket's receive buffer in bytes (the kernel caps it at net.core.rmem_max).")
    var receiveBufferSize = 8 << 20

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        guard flushInterval.nanoseconds >= 1_000_000 else {
            throw ValidationError("--flush-interval must be at least 1ms.")
        }
        guard graphite != nil || stdout else {
            throw ValidationError("Give --graphite host:port, --stdout, or both.")
        }
        guard maxNames > 0 else {
            throw ValidationError("--max-names must be above 0.")
        }
        guard receiveBufferSize > 0 else {
            throw ValidationError("--receive-buffer-size must be above 0.")
        }
        if let metricsPort, !(0...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535.")
        }
    }

    func run() async throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("statsd-agg")
        // statsd-agg counts its own packets and lines through swift-metrics;
        // its backend is itself: they come out in its flushes.
        // With --metrics-port they also go to a Prometheus registry.
        let selfMetrics = SelfMetrics()
        let prometheus = metricsPort.map { _ in PrometheusEndpoint() }
        if let prometheus {
            MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [selfMetrics, prometheus.factory]))
        } else {
            MetricsSystem.bootstrap(selfMetrics)
        }
        let packetsReceived = Counter(label: Aggregates.packetsReceived)
        let metricsReceived = Counter(label: Aggregates.metricsReceived)
        let badLinesSeen = Counter(label: Aggregates.badLines)
        let group = try LoopGroup(threads: 1, logger: logger)
        let loop = group.loops[0]
        let (host, port, graphite, toStdout) = (host, port, graphite, stdout)
        let flushInterval = flushInterval
        let seconds = Double(flushInterval.nanoseconds) / 1e9
        // Loop-thread state: every event below arrives on the loop thread.
        var aggregates = Aggregates(percentiles: percentiles.values, maxNames: maxNames)
        let cannotBind = Atomic<Bool>(false)

        // Under a ServiceGroup: the first SIGINT or SIGTERM ends receiving
        // and the periodic flushes (`requested`), then runs the last flush
        // (`add(drain:)`), waits for it, and closes what is left; a second
        // signal ends at once.
        let daemon = LoopGroupService(group, deadline: .seconds(5), signals: [SIGINT, SIGTERM])
        let shutdown = daemon.shutdown

        let options = UDPOptions(receiveBufferSize: receiveBufferSize, batchedReceive: true)
        shutdown.add(
            loop.rx.bindUDP(host: host, port: port, options: options)
                .subscribe(
                    onSuccess: { socket in
                        let destinations = [graphite.map { "graphite \($0)" }, toStdout ? "stdout" : nil].compactMap { $0 }
                        logger.info("listening on \(socket.localAddress.map { "\($0)" } ?? "?")")
                        logger.info("flushing every \(flushInterval) to \(destinations.joined(separator: " and "))")

                        shutdown.add(
                            socket.rx.datagrams
                                .take(until: shutdown.requested)
                                .subscribe(
                                    onNext: { datagram in
                                        let (lines, badLines) = aggregates.receive(datagram.bytes)
                                        packetsReceived.increment()
                                        metricsReceived.increment(by: lines)
                                        badLinesSeen.increment(by: badLines)
                                    }, onDisposed: { socket.close() }))

                        let flush = Observable<Never>.deferred {
                            aggregates.count(selfMetrics.take())
                            let dropped = aggregates.takeDropped()
                            if dropped > 0 {
                                logger.warning("dropped \(Console.count(dropped, "sample")) of new names: \(aggregates.maxNames) names are kept already (--max-names)")
                            }
                            let stats = aggregates.flush(interval: seconds)
                            let timestamp = time(nil)
                            if toStdout {
                                print(jsonLine(stats, timestamp: timestamp))
                            }
                            guard let graphite else { return .empty() }
                            return send(graphiteText(stats, timestamp: timestamp), to: graphite, on: loop, logger: logger)
                        }
                        shutdown.add(
                            Observable<Int>.interval(flushInterval.rxInterval, scheduler: loop)
                                .take(until: shutdown.requested)
                                .concatMap { _ in flush }
                                .subscribe())
                        shutdown.add(
                            drain: flush.asCompletable().do(onCompleted: {
                                let totals = aggregates.totals
                                logger.info(
                                    "stopped; received \(Console.count(totals.packets, "packet")), \(Console.count(totals.metrics, "metric")), \(Console.count(totals.badLines, "bad line")), dropped \(Console.count(totals.dropped, "sample")) of new names"
                                )
                            }))
                    },
                    onFailure: { error in
                        let reason = (error as? UVError)?.shortDescription ?? "\(error)"
                        logger.error("cannot bind \(Endpoint.format(host: host, port: port)): \(reason)", error: error)
                        cannotBind.store(true, ordering: .relaxed)
                        shutdown.now()
                    }
                ))

        // Returns once the shutdown has closed everything, or at once when
        // the socket could not be bound.
        var services: [ServerService] = []
        if let prometheus, let metricsPort {
            services.append(prometheus.service(on: daemon, host: host, port: metricsPort, program: "statsd-agg"))
        }
        try await daemon.runDaemon(with: services, logger: logger)
        if cannotBind.load(ordering: .relaxed) {
            throw ExitCode(1)
        }
    }
}

/// Writes `text` to Graphite over a new TCP connection, then closes it, as
/// statsd's Graphite backend does each flush. A Graphite that is down or
/// slow is logged (standard error) and skipped: metrics of that flush
/// are lost, the daemon goes on.
func send(_ text: String, to graphite: Endpoint, on loop: Loop, logger: Logger) -> Observable<Never> {
    loop.rx.connect(host: graphite.host, port: graphite.port)
        .asObservable()
        .flatMap { connection in
            connection.write(text).andThen(connection.shutdown()).asObservable()
                .do(onDispose: { connection.close() })
        }
        .timeout(.seconds(5), scheduler: loop)
        .catch { error in
            let reason = (error as? UVError)?.shortDescription ?? "\(error)"
            logger.error("cannot send to graphite \(graphite): \(reason)", error: error)
            return .empty()
        }
}

/// `--percentiles 50,90,99`.
struct Percentiles: ExpressibleByArgument {
    let values: [Double]

    init?(argument: String) {
        var values: [Double] = []
        for part in argument.split(separator: ",") {
            guard let value = Double(part.trimmingCharacters(in: " ")), value != 0, abs(value) <= 100 else { return nil }
            values.append(value)
        }
        guard !values.isEmpty else { return nil }
        self.values = values
    }

    var defaultValueDescription: String {
        values.map(formatNumber).joined(separator: ",")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
