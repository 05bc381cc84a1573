import Logging

extension Loop {
    /// The logger the loop's diagnostics go to: every error the bridge
    /// cannot hand to a subscriber on this loop (a failed accept, a handler
    /// that failed, a child that could not be reaped, a timer that could
    /// not start, work dropped by a closing loop), at level `error`, with
    /// the server, the peer, the handle kind and libuv's error name as
    /// metadata.
    ///
    /// Until one is set, the process-wide logger (`Logger(label: "rxuv")`,
    /// made when a diagnostic is logged, so a backend bootstrapped after the
    /// loop was made is used): with no backend bootstrapped, swift-log
    /// writes to standard error. A `LoopGroup`'s loops carry the metadata
    /// `loop` (their index) on whichever logger they use. Safe from any
    /// thread.
    public var logger: Logger {
        get {
            let (handedIn, metadata) = logging.withLock { $0 }
            var logger = handedIn ?? Loop.defaultLogger()
            for (key, value) in metadata {
                logger[metadataKey: key] = value
            }
            return logger
        }
        set {
            logging.withLock { $0.logger = newValue }
        }
    }

    /// Tags the loop's log entries with `key`: `value`.
    func tagLogs(_ key: String, _ value: Logger.Metadata.Value) {
        logging.withLock { $0.metadata[key] = value }
    }

    /// The process-wide logger of RxUV's diagnostics, from the backend
    /// bootstrapped now.
    static func defaultLogger() -> Logger {
        Logger(label: "rxuv")
    }
}
