import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

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
            through libuv's getaddrinfo.
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

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("Give at least one host:port target.") }
        guard !interval.isZero else { throw ValidationError("--interval must be longer than 0.") }
        guard !timeout.isZero else { throw ValidationError("--timeout must be longer than 0.") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
    }

    func run() throws {
        Console.lineBuffered()
        let loop = try Loop()
        loop.logger = logging.bootstrap("tcp-probe")
        let (targets, timeout) = (targets, timeout)
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
                probe(targets[index], timeout: timeout, on: loop).map { (index, $0) }
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
}

/// One attempt: connect with a timeout, close at once, report the outcome.
func probe(_ target: Endpoint, timeout: Interval, on loop: Loop) -> Observable<ProbeOutcome> {
    Observable.deferred {
        let start = ContinuousClock.now
        return loop.rx.connect(host: target.host, port: target.port)
            .asObservable()
            .timeout(timeout.rxInterval, scheduler: loop)
            .map { connection -> ProbeOutcome in
                connection.close()
                return .open(ContinuousClock.now - start)
            }
            .catch { error in .just(ProbeOutcome(error)) }
    }
}
