import RxCore
import RxUV
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// A `Server` as a swift-service-lifecycle `Service`: `run()` starts it
/// (subscribes to the `serve` it was given and waits until it listens),
/// adds it to the graceful shutdown that drains its daemon, and returns
/// once that shutdown has drained it.
///
/// A server that cannot listen makes `run()` log `cannot listen on NAME:
/// REASON` at level `error` (to the logger of the shutdown's first loop,
/// `Loop.logger`, with the error) and throw the `UVError` (`EADDRINUSE`,
/// `EACCES`), which ends the service group. When the service
/// group shuts down gracefully, the shared shutdown begins (no new
/// connections; handlers told through `quiesce`; what is left reset at the
/// deadline); a cancelled task ends it at once. `onStart` is called with
/// the server once it listens, on one of its loop threads.
public struct ServerService: Service, CustomStringConvertible {
    // The `Single` is an immutable description, subscribed once by `run()`.
    private let start: UncheckedSendable<Single<Server>>
    private let shutdown: GracefulShutdown
    private let secondSignals: [Int32]
    private let onStart: @Sendable (Server) -> Void
    /// Its name: the address it listens on, as the logs say it
    /// (`127.0.0.1:7000`, `unix:/run/app.sock`).
    public let description: String

    /// A service that starts the server `start` makes (a
    /// `group.rx.serve(…)`), drained by `daemon`'s graceful shutdown;
    /// `name` is what the logs call it (the address it listens on).
    public init(_ start: Single<Server>, drainedBy daemon: LoopGroupService, name: String, onStart: @escaping @Sendable (Server) -> Void = { _ in }) {
        self.init(start, drainedBy: daemon.shutdown, name: name, onStart: onStart)
    }

    /// A service that starts the server `start` makes, drained by
    /// `shutdown`; after it began, a signal in `secondSignals` ends it at
    /// once; `name` is what the logs call it.
    public init(
        _ start: Single<Server>, drainedBy shutdown: GracefulShutdown, secondSignals: [Int32] = [SIGINT, SIGTERM], name: String,
        onStart: @escaping @Sendable (Server) -> Void = { _ in }
    ) {
        self.start = UncheckedSendable(start)
        self.shutdown = shutdown
        self.secondSignals = secondSignals
        self.onStart = onStart
        self.description = name
    }

    /// Starts the server and returns once the graceful shutdown has drained
    /// it and the service group has asked this service to stop (or
    /// cancelled it). Throws the error of a server that cannot start; cancelled before
    /// it listens, throws `CancellationError` and listens to nothing.
    public func run() async throws {
        let server: Server
        do {
            server = try await start.value.value
        } catch let error as UVError {
            shutdown.loops[0].logger.error("cannot listen on \(description): \(error.shortDescription)", error: error, metadata: ["server": "\(description)"])
            throw error
        }
        shutdown.add(server)
        onStart(server)
        await shutdown.runAsService(secondSignals: secondSignals)
    }
}
