import Logging

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler for command-line examples: one line per entry on
/// standard error, `label: message`, as a command-line tool writes its
/// errors. At level `debug` and below, each line also carries its
/// metadata (`[loop=0 peer=127.0.0.1:53122]`), so `--log-level debug`
/// shows the context of every diagnostic.
public struct ConsoleLogHandler: LogHandler {
    private let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    /// A handler that writes entries at `level` and above.
    public init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "\(label): \(event.message)"
        if logLevel <= .debug {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            if !merged.isEmpty {
                line += " [" + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "]"
            }
        }
        Console.error(line)
    }
}
