import ArgumentParser
import ExampleSupport
import Logging
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `wait-for`: waits until TCP ports answer, then runs a command, the step
/// a container or a CI job takes before it starts on its database. Its
/// `main` is one async function on a loop (`loop.run { … }`): a timer, a
/// connect and a child process, awaited in turn.
@main
struct WaitFor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait-for",
        abstract: "Wait until TCP ports answer, then run a command and exit with its status.",
        discussion: """
            Tries every target that has not answered yet each --interval, each \
            connect bounded by --attempt-timeout, for at most --timeout. Then runs \
            COMMAND (after --) with this process's standard input and output and \
            exits with its status (0 with no command). Exits 1 when the time runs \
            out, naming the targets that never answered, and 127 when the command \
            cannot start. Example: wait-for 127.0.0.1:5432 -- ./migrate
            """
    )

    @Argument(help: "Targets as host:port ([::1]:7000 for IPv6).")
    var targets: [Endpoint]

    @Option(help: "Time between tries.")
    var interval = Interval(argument: "100ms")!

    @Option(help: "Give up on one connect after this long.")
    var attemptTimeout = Interval(argument: "1s")!

    @Option(help: "Give up waiting after this long.")
    var timeout = Interval(argument: "30s")!

    @OptionGroup var logging: LoggingOptions

    /// The command to run once every target answers: the words after `--`,
    /// split off before the flags are parsed (`main()`), since the targets
    /// are a list of positional arguments too.
    var command: [String] = []

    enum CodingKeys: String, CodingKey {
        case targets, interval, attemptTimeout, timeout, logging
    }

    /// Parses the words before `--` as the flags and targets; the words
    /// after it are the command.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let terminator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        do {
            var parsed = try parseAsRoot(Array(arguments[..<terminator]))
            if var waitFor = parsed as? WaitFor {
                waitFor.command = Array(arguments[terminator...].dropFirst())
                parsed = waitFor
            }
            try parsed.run()
        } catch {
            exit(withError: error)
        }
    }

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("Give at least one host:port target.") }
        guard !interval.isZero, !attemptTimeout.isZero, !timeout.isZero else {
            throw ValidationError("--interval, --attempt-timeout and --timeout must be longer than 0.")
        }
    }

    func run() throws {
        Console.lineBuffered()
        let logger = logging.bootstrap("wait-for")
        let loop = try Loop()
        loop.logger = logger
        let (targets, command, interval, attemptTimeout, timeout) = (targets, command, interval, attemptTimeout, timeout)

        // The whole tool, on the loop's thread; `run` returns its status once
        // the body has returned and the loop has nothing left to do.
        let status = try loop.run { () async throws -> Int32 in
            let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
            var waiting = targets
            while true {
                waiting = await unanswered(waiting, on: loop, within: attemptTimeout, logger: logger)
                if waiting.isEmpty { break }
                guard ContinuousClock.now < deadline else {
                    logger.error("timed out after \(timeout); no answer from \(waiting.map(\.description).joined(separator: " "))")
                    return 1
                }
                _ = try await loop.rx.timer(after: interval.rxInterval).take(1).asSingle().value
            }
            guard let executable = command.first else { return 0 }
            var options = ProcessOptions(executable, arguments: Array(command.dropFirst()))
            options.standardInput = .inherit
            options.standardOutput = .inherit
            options.standardError = .inherit
            do {
                let child = try await loop.rx.spawn(options).value
                return try await child.exit.value.exitCode
            } catch let error as UVError {
                logger.error("cannot run \(command.joined(separator: " ")): \(error.shortDescription)")
                return 127
            }
        }
        // Every handle the body opened is closed: the loop closes cleanly
        // (it throws EBUSY, naming them, otherwise).
        try loop.close()
        if status != 0 {
            throw ExitCode(status)
        }
    }
}

/// The targets of `targets` that do not answer a connect within `limit`,
/// tried one after another; each that answers is said once and its
/// connection closed.
func unanswered(_ targets: [Endpoint], on loop: Loop, within limit: Interval, logger: Logger) async -> [Endpoint] {
    var left: [Endpoint] = []
    for target in targets {
        do {
            let connection = try await loop.rx.connect(host: target.host, port: target.port)
                .timeout(limit.rxInterval, scheduler: loop)
                .value
            connection.close()
            logger.info("\(target) answers")
        } catch {
            logger.debug("\(target): \(error)")
            left.append(target)
        }
    }
    return left
}
