import ArgumentParser
import ExampleSupport
import RxCore
import RxUV
import RxUVTLS

#if canImport(Glibc)
import Glibc
#endif

/// `tcp-probe`: connects to each target on every tick and reports the
/// latency, in the spirit of `tcping`.
@main
struct TCPProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tcp-probe",
        abstract: "Connect to TCP ports on every tick and report whether they answer, and how fast.",
        discussion: """
            Prints one line per attempt: open with the connect time, closed with \
            the error (ECONNREFUSED), or timeout. After --count ticks, or on \
            SIGINT/SIGTERM, prints per-target statistics and exits 0 if every \
            target answered at least once, 2 otherwise. Host names resolve \
            through libuv's getaddrinfo. With --tls each attempt also runs a TLS \
            handshake and reports its time, the protocol, the cipher and the days \
            until the server's certificate expires; a certificate that does not \
            verify is an error (certificateExpired, hostnameMismatch, unknownCA).
            """
    )

    @Argument(help: "Targets as host:port ([::1]:7000 for IPv6).")
    var targets: [Endpoint]

    @Option(help: "Time between ticks.")
    var interval = Interval(argument: "1s")!

    @Option(help: "Give up on an attempt after this long.")
    var timeout = Interval(argument: "500ms")!

    @Option(help: "Stop after this many ticks (default: until interrupted).")
    var count: Int?

    @Flag(help: "Run a TLS handshake after each connect.")
    var tls = false

    @Option(help: "With --tls: trust these CA certificates (PEM) instead of the system's.")
    var tlsCaFile: String?

    @Option(help: "With --tls: the server name to send and check (default: the target's host).")
    var serverName: String?

    @Flag(help: "With --tls: do not verify the server's certificate.")
    var tlsInsecure = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("Give at least one host:port target.") }
        guard !interval.isZero else { throw ValidationError("--interval must be longer than 0.") }
        guard !timeout.isZero else { throw ValidationError("--timeout must be longer than 0.") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if !tls, tlsCaFile != nil || serverName != nil || tlsInsecure {
            throw ValidationError("--tls-ca-file, --server-name and --tls-insecure go with --tls.")
        }
    }

    func run() throws {
        Console.lineBuffered()
        let loop = try Loop()
        loop.logger = logging.bootstrap("tcp-probe")
        let (targets, timeout, serverName) = (targets, timeout, serverName)
        let context = try tls ? TLSContext(configuration: tlsConfiguration) : nil
        var statistics = targets.map { ProbeStatistics(target: $0) }
        let interrupted = PublishSubject<Void>()
        let finished = PublishSubject<Void>()
        let bag = DisposeBag()

        Observable.merge(loop.rx.signal(SIGINT), loop.rx.signal(SIGTERM))
            .take(1)
            .take(until: finished)
            .subscribe(onNext: { _ in interrupted.onNext(()) })
            .disposed(by: bag)

        var ticks = Observable<Int>.timer(.seconds(0), period: interval.rxInterval, scheduler: loop)
        if let count {
            ticks = ticks.take(count)
        }
        ticks
            .flatMap { _ in Observable.from(targets.indices) }
            .flatMap { index in
                probe(targets[index], timeout: timeout, tls: context, serverName: serverName, on: loop).map { (index, $0) }
            }
            .take(until: interrupted) // attempts in flight are cancelled, not counted
            .subscribe(
                onNext: { index, outcome in
                    statistics[index].record(outcome)
                    print("\(targets[index])  \(outcome)")
                },
                onCompleted: {
                    print("--- tcp-probe statistics ---")
                    statistics.forEach { print($0) }
                    finished.onNext(())
                }
            )
            .disposed(by: bag)

        loop.run()
        try loop.close()
        if statistics.contains(where: { $0.ok == 0 }) {
            throw ExitCode(2)
        }
    }

    /// The TLS client configuration of the flags.
    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.client(trustRoots: tlsCaFile.map { .certificates(.file($0)) } ?? .system)
        if tlsInsecure {
            configuration.peerVerification = .none
        }
        return configuration
    }
}

/// One attempt: connect (and, with `tls`, handshake) within `timeout`,
/// close at once, report the outcome.
func probe(_ target: Endpoint, timeout: Interval, tls: TLSContext?, serverName: String?, on loop: Loop) -> Observable<ProbeOutcome> {
    Observable.deferred {
        let start = ContinuousClock.now
        let attempt = loop.rx.connect(host: target.host, port: target.port)
            .flatMap { connection -> Single<ProbeOutcome> in
                let connected = ContinuousClock.now - start
                guard let tls else {
                    connection.close()
                    return .just(.open(connected))
                }
                let stream = TLSStream.client(over: connection, context: tls, serverName: serverName ?? target.host)
                return stream.handshake.andThen(
                    Single.deferred {
                        stream.close(.afterWrites)
                        guard let session = stream.session else { return .just(.open(connected)) }
                        return .just(.tlsOpen(connected, handshake: ContinuousClock.now - start - connected, session))
                    })
            }
        return attempt.asObservable()
            .timeout(timeout.rxInterval, scheduler: loop)
            .catch { error in .just(ProbeOutcome(error)) }
    }
}
