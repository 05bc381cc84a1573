import ArgumentParser
import Logging

/// `--log-level`, which every example takes: the level of what it and RxUV
/// log (through swift-log) to standard error.
public struct LoggingOptions: ParsableArguments {
    @Option(
        help: "Log at this level and above: trace, debug, info, notice, warning, error, critical. At debug, each line shows its metadata.",
        transform: LoggingOptions.level)
    public var logLevel: Logger.Level = .info

    public init() {}

    /// Sends every logger of the process to standard error at the chosen
    /// level (`ConsoleLogHandler`) and returns the example's logger,
    /// labelled `label`. Call once, first.
    public func bootstrap(_ label: String) -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, level: level) }
        return Logger(label: label)
    }
}

extension LoggingOptions {
    /// `--log-level`'s value: a swift-log level by name.
    static func level(_ argument: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--log-level must be one of \(names).")
        }
        return level
    }
}
