import Logging
import RxCore

/// What was going on when an error could not reach a subscriber: the loop,
/// the server's address, the peer and the kind of handle, where known, and
/// the logger to tell.
package struct ReportContext {
    /// The loop the failure happened on.
    var loop: Loop?
    /// The address a server listens on (`127.0.0.1:7000`, `unix:/run/app.sock`).
    var server: String?
    /// The peer of the connection involved.
    var peer: String?
    /// The kind of handle involved (`tcp`, `udp`, `process`, `timer`).
    var handle: String?
    /// The logger a server was given (`ServerOptions.logger`); `nil` for
    /// the loop's.
    var logger: Logger?

    package init(loop: Loop? = nil, server: String? = nil, peer: String? = nil, handle: String? = nil, logger: Logger? = nil) {
        self.loop = loop
        self.server = server
        self.peer = peer
        self.handle = handle
        self.logger = logger
    }

    /// `peer` or `server`, whichever is known, for an error that names no
    /// address of its own.
    var address: String? {
        peer ?? server
    }

    /// The logger to tell: the server's, the loop's, or the process-wide
    /// default (`Loop.defaultLogger`).
    var resolvedLogger: Logger {
        logger ?? loop?.logger ?? Loop.defaultLogger()
    }

    /// What the log entry carries beside the message.
    func metadata(for error: any Error) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        if let server { metadata["server"] = "\(server)" }
        if let peer { metadata["peer"] = "\(peer)" }
        if let handle { metadata["handle"] = "\(handle)" }
        if let failure = error as? UVError {
            metadata["error"] = "\(failure.name)"
            metadata["operation"] = "\(failure.operation)"
        }
        return metadata
    }
}

/// The one way the bridge reports an error that cannot reach a subscriber:
/// a failed accept, a handler's error, a timer that cannot start, a
/// teardown signal that failed. A `UVError` that names no address gets the
/// context's peer or server. The error goes, at level `error`, with the
/// context as metadata, to the logger the context resolves: a server's
/// (`ServerOptions.logger`), else its loop's (`Loop.logger`, which a
/// `LoopGroup` tags with the loop's index), else the process-wide one
/// (`Logger(label: "rxuv")`): whatever backend the program bootstrapped
/// with `LoggingSystem.bootstrap`, or, with none, swift-log's default,
/// which writes to standard error in every build. Called on the thread
/// where the failure happened (or, for a loop's stall, on its watchdog's).
///
/// A report that is not a failure of its own (a stall, reported at
/// `warning`, and its end, at `notice`) says so with `level`, and adds what
/// it measured in `metadata`.
package func report(_ error: any Error, _ context: ReportContext = ReportContext(), level: Logger.Level = .error, metadata extra: Logger.Metadata = [:]) {
    var reported = error
    if let failure = error as? UVError, failure.address == nil, let address = context.address {
        reported = UVError(code: failure.code, operation: failure.operation, address: address)
    }
    let metadata = context.metadata(for: reported).merging(extra) { _, added in added }
    context.resolvedLogger.log(level: level, "\(reported)", error: reported, metadata: metadata)
}
