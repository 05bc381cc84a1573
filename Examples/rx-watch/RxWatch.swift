import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `rx-watch`: run a command each time watched files change, as `entr` or
/// `watchexec` do.
@main
struct RxWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rx-watch",
        abstract: "Run a command each time one of the watched files changes.",
        usage: "rx-watch [--debounce <debounce>] [--restart] [--clear] [--once] [<path> ...] -- <command> [<argument> ...]",
        discussion: """
            Each burst of changes (writes, an editor's atomic save, delete and re-create) \
            runs the command once, after --debounce without another change. The command's \
            output goes straight to ours. A change while it runs queues one more run after \
            it; with --restart, it stops the command instead (SIGTERM to its process group, \
            SIGKILL after --grace) and starts it again. With no PATH, the paths are read \
            from standard input, one a line (git ls-files | rx-watch -- make test). With \
            --once, runs the command on the first change and exits with its status. SIGINT \
            or SIGTERM stops the command the same way and exits 130 or 143. Exits 1 when a \
            path cannot be watched or standard input held none, 64 on a bad flag.
            """
    )

    @Option(help: "Wait this long without another change before running.")
    var debounce = Interval(argument: "100ms")!

    @Flag(help: "Stop the running command and start it again on a change.")
    var restart = false

    @Flag(help: "Clear the screen before each run.")
    var clear = false

    @Flag(help: "Run the command on the first change, then exit with its status.")
    var once = false

    @Option(help: "How long a stopped command gets after SIGTERM before SIGKILL.")
    var grace = Interval(argument: "2s")!

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp(
            "Files or directories to watch (read from standard input, one a line, when none are given), then -- and the command with its arguments.",
            valueName: "path ... -- command"))
    var words: [String] = []

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        // The words are captured as they are, `--help` too when it comes first.
        if let first = words.first, ["--help", "-h"].contains(first) {
            throw CleanExit.helpRequest(self)
        }
        guard !command.isEmpty else {
            throw ValidationError("Give the command after --: rx-watch src -- make test")
        }
        if let flag = paths.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("\(flag): flags go before the paths: rx-watch --restart src -- make test")
        }
        if paths.isEmpty, isatty(0) != 0 {
            throw ValidationError("Give the paths to watch, or pipe them in: git ls-files | rx-watch -- make test")
        }
    }

    func run() throws {
        Console.lineBuffered()
        let loop = try Loop()
        let logger = logging.bootstrap("rx-watch")
        loop.logger = logger
        let watcher = Watcher(loop: loop, command: command, pathsFromStandardInput: paths.isEmpty, clear: clear, grace: grace.rxInterval)
        let paths: Single<[String]> =
            paths.isEmpty
            ? loop.rx.stdin.lines(maxLength: 4096).map { $0.string }.filter { !$0.isEmpty }.toArray()
            : .just(paths)
        let debounce = debounce
        let (restart, once) = (restart, once)

        // Every burst of changes, once it has settled.
        let changes = paths.asObservable()
            .flatMap { paths in classify(paths, on: loop) }
            .flatMap { classified -> Observable<Void> in
                guard !classified.isEmpty else { return .error(NoPaths()) }
                var failed = false // a watch that cannot start fails at once, during the subscribe
                return WatchPlan(classified).changes(on: loop)
                    .do(onError: { _ in failed = true })
                    .map { _ in () }
                    .do(onSubscribed: {
                        if !failed { logger.info("watching \(Console.count(classified.count, "path"))") }
                    })
            }
        let settled = debounce.isZero ? changes : changes.debounce(debounce.rxInterval, scheduler: loop)

        // The runs, as each mode wants them.
        let runs: Observable<TerminationStatus> =
            if once {
                settled.take(1).flatMap { watcher.run() }
            } else if restart {
                // The latest change wins: the run it replaces is stopped
                // (disposed), and the next starts once that one is gone.
                settled.flatMapLatest { watcher.afterPreviousStopped(watcher.run()) }
            } else {
                settled.queueing { watcher.run() }
            }

        // A signal stops whatever runs (the switch disposes the runs), then
        // waits for the command's group to be gone.
        let stop = Observable.merge(loop.rx.signal(SIGINT), loop.rx.signal(SIGTERM)).take(1)
        var exitCode: Int32 = 0
        let subscription = Observable.merge(Observable.just(Phase.running), stop.map(Phase.stopping))
            .flatMapLatest { phase -> Observable<Outcome> in
                switch phase {
                case .running:
                    runs.map(Outcome.exited).concat(Observable.just(.finished))
                case .stopping(let signal):
                    watcher.afterPreviousStopped(.just(.stopped(signal)))
                }
            }
            .take(while: { if case .exited = $0 { true } else { false } }, behavior: .inclusive)
            .subscribe(
                onNext: { outcome in
                    switch outcome {
                    case .exited(let status):
                        if once { exitCode = status.exitCode }
                        if !status.isSuccess { logger.error("\(watcher.commandLine) \(status.summary)") }
                    case .stopped(let signal):
                        exitCode = 128 + signal
                    case .finished:
                        break
                    }
                },
                onError: { error in
                    let reason = (error as? UVError).map { "\($0.operation)(\($0.address ?? "")): \($0.shortDescription)" } ?? "\(error)"
                    logger.error("\(reason)", error: error)
                    exitCode = 1
                })
        loop.run()
        subscription.dispose()
        try? loop.close()
        if exitCode != 0 {
            throw ExitCode(exitCode)
        }
    }
}

/// Standard input held no path.
struct NoPaths: Error, CustomStringConvertible {
    var description: String { "no paths to watch on standard input" }
}

/// The two phases of the program: running commands on changes, then
/// stopping on a signal.
enum Phase {
    case running
    case stopping(Int32)
}

/// What the main chain emits.
enum Outcome {
    /// A run ended.
    case exited(TerminationStatus)
    /// A signal stopped the program (and the running command).
    case stopped(Int32)
    /// `--once`: the one run is over.
    case finished
}

extension TerminationStatus {
    /// "exited 2", "killed by signal 9".
    var summary: String {
        switch self {
        case .exited(let code): "exited \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

extension RxWatch {
    /// The words before `--`.
    var paths: [String] {
        Array(words.prefix { $0 != "--" })
    }

    /// The words after the first `--`.
    var command: [String] {
        Array(words.drop { $0 != "--" }.dropFirst())
    }
}
