import InMemoryLogging
import Logging
import RxUV

/// The diagnostics a loop reported, captured by an in-memory log handler
/// (swift-log's `InMemoryLogHandler`) in place of the loop's logger.
public struct CapturedReports: Sendable {
    /// The handler that keeps the entries.
    public let handler = InMemoryLogHandler()

    /// A logger that writes here.
    public var logger: Logger {
        Logger(label: "rxuv.test") { _ in handler }
    }

    /// Captures what `loop` reports from now on.
    public init(on loop: Loop) {
        loop.logger = logger
    }

    /// Captures nothing by itself: hand `logger` to what reports.
    public init() {}

    /// The entries logged, in order.
    public var entries: [InMemoryLogHandler.Entry] {
        handler.entries
    }

    /// The libuv error names of the reported `UVError`s (other errors as
    /// their description), in order.
    public var names: [String] {
        entries.map { entry in
            (entry.error as? UVError)?.name ?? entry.error.map { "\($0)" } ?? "\(entry.message)"
        }
    }

    /// The reported errors, in order.
    public var errors: [any Error] {
        entries.compactMap(\.error)
    }
}
