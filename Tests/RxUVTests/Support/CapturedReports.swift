import InMemoryLogging
import Logging
import RxUV

/// The diagnostics a loop reported, captured by an in-memory log handler
/// (swift-log's `InMemoryLogHandler`) in place of the loop's logger.
struct CapturedReports {
    let handler = InMemoryLogHandler()

    /// A logger that writes here.
    var logger: Logger {
        Logger(label: "rxuv.test") { _ in handler }
    }

    /// Captures what `loop` reports from now on.
    init(on loop: Loop) {
        loop.logger = logger
    }

    /// Captures nothing by itself: hand `logger` to what reports.
    init() {}

    /// The entries logged, in order.
    var entries: [InMemoryLogHandler.Entry] {
        handler.entries
    }

    /// The libuv error names of the reported `UVError`s (other errors as
    /// their description), in order.
    var names: [String] {
        entries.map { entry in
            (entry.error as? UVError)?.name ?? entry.error.map { "\($0)" } ?? "\(entry.message)"
        }
    }

    /// The reported errors, in order.
    var errors: [any Error] {
        entries.compactMap(\.error)
    }
}
