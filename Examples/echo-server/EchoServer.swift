import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `echo-server`: a TCP echo server written as one Observable chain.
@main
struct EchoServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo-server",
        abstract: "Echo every byte a TCP client sends back to it.",
        discussion: """
            SIGINT or SIGTERM stops accepting, lets queued writes finish for up to \
            2 seconds, closes every connection, prints a summary and exits 0. \
            SIGHUP prints the counters. Exits 1 when it cannot listen.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose.")
    var port = 7000

    @Option(help: "Refuse (close at once) connections beyond this many open ones.")
    var maxConnections: Int?

    @Option(help: "Close a connection that sends nothing for this long (0 disables).")
    var idleTimeout = Interval(argument: "60s")!

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1.")
        }
    }

    func run() throws {
        Console.lineBuffered()
        let loop = try Loop()
        let (host, port, maxConnections, idleTimeout) = (host, port, maxConnections, idleTimeout)
        let bag = DisposeBag()
        let stopping = PublishSubject<Void>() // a stop was asked for
        let finished = PublishSubject<Void>() // the server is done: release the signals and timers
        var open: [ObjectIdentifier: TCPConnection] = [:]
        var served = 0
        var refused = 0
        var echoed = 0
        var exitCode: Int32 = 0

        // Signals first: once "listening" is printed, they are handled.
        Observable.merge(loop.rx.signal(SIGINT), loop.rx.signal(SIGTERM))
            .take(1)
            .take(until: finished)
            .subscribe(onNext: { signum in
                print("echo-server: \(signum == SIGINT ? "SIGINT" : "SIGTERM"): no new connections, closing \(open.count) open")
                stopping.onNext(())
            })
            .disposed(by: bag)
        loop.rx.signal(SIGHUP)
            .take(until: finished)
            .subscribe(onNext: { _ in
                print("echo-server: \(open.count) open, \(served) served, \(refused) refused, \(echoed) bytes echoed")
            })
            .disposed(by: bag)
        // In-flight writes get 2 s after a stop; then every connection closes.
        stopping.take(1)
            .flatMap { loop.rx.timer(after: .seconds(2)) }
            .take(until: finished)
            .subscribe(onNext: { _ in open.values.forEach { $0.close() } })
            .disposed(by: bag)

        loop.rx.listen(host: host, port: port, onListening: { print("echo-server: listening on \($0)") })
            .take(until: stopping)
            .flatMap { connection -> Observable<Never> in
                if let maxConnections, open.count >= maxConnections {
                    refused += 1
                    connection.close()
                    return .empty()
                }
                let id = ObjectIdentifier(connection)
                open[id] = connection
                served += 1
                let reads = idleTimeout.isZero ? connection.rx.data : connection.rx.data.timeout(idleTimeout.rxInterval, scheduler: loop)
                return
                    reads
                    .take(until: stopping)
                    .flatMap { bytes in
                        connection.write(bytes).asObservable().do(onCompleted: { echoed += bytes.count })
                    }
                    .catch { _ in .empty() } // a reset or an idle timeout ends this connection only
                    .do(onDispose: { open[id] = nil })
            }
            .subscribe(
                onError: { error in
                    let reason = (error as? UVError)?.shortDescription ?? "\(error)"
                    Console.error("echo-server: cannot listen on \(Endpoint.format(host: host, port: port)): \(reason)")
                    exitCode = 1
                    finished.onNext(())
                },
                onCompleted: {
                    print("echo-server: stopped; served \(Console.count(served, "connection")), echoed \(Console.count(echoed, "byte"))")
                    finished.onNext(())
                }
            )
            .disposed(by: bag)

        loop.run()
        try loop.close()
        if exitCode != 0 {
            throw ExitCode(exitCode)
        }
    }
}
