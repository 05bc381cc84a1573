import Logging
import RxCore
import RxUV
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// A `LoopGroup`'s daemon as a swift-service-lifecycle `Service`: the group
/// runs until its `ServiceGroup` shuts down gracefully, then `shutdown`
/// drains it (the servers added to it drain, the work added with
/// `add(drain:)` runs, the disposables added are disposed, what is left is
/// closed), the group's loops close and their threads end
/// (`LoopGroup.shutdown()`), and `run()` returns.
///
/// `shutdown` is the engine: the daemon's `GracefulShutdown`, begun when
/// the service group asks. Add the daemon's servers (or run them as
/// `ServerService`s), its long-lived subscriptions and its last flushes to
/// it, and chain `take(until: shutdown.requested)` as without a service
/// group. After the graceful shutdown began, a second `SIGINT` or `SIGTERM`
/// (by default) ends it at once; a cancelled task (the group cancelled)
/// ends it at once too.
///
/// Who watches the signals: in a service group that has
/// `gracefulShutdownSignals`, the group does (`signals` empty, the
/// default), and `shutdown.requested` emits `SIGTERM`. With `signals`, the
/// service watches them itself on the group's first loop, as a daemon's
/// `gracefulShutdown(on:)` does: the first begins the drain
/// (`shutdown.requested` emits it) and `run(with:logger:)` shuts the
/// service group down gracefully with it; a second ends the drain at once.
///
/// `run()` logs (at level `error`, to the first loop's logger) and throws
/// the `UVError` of `LoopGroup.shutdown()` (`EBUSY`, naming handles still
/// open); it runs once.
public final class LoopGroupService: Service, CustomStringConvertible {
    /// The loops this service runs and closes.
    public let group: LoopGroup
    /// The graceful shutdown that drains the group's daemon.
    public let shutdown: GracefulShutdown
    private let secondSignals: [Int32]

    /// A service for `group`, whose graceful shutdown gives its servers and
    /// drain work `deadline` to finish. `signals`: the signals the service
    /// watches itself (none: the service group owns them); after the
    /// shutdown began, a signal in `secondSignals` ends it at once.
    ///
    /// Takes RxSwift's `RxTimeInterval`; the initializer beside it takes
    /// `Duration`.
    public convenience init(
        _ group: LoopGroup, deadline: RxTimeInterval = .seconds(10), signals: [Int32] = [], secondSignals: [Int32] = [SIGINT, SIGTERM]
    ) {
        self.init(group, deadline: deadline.duration, signals: signals, secondSignals: secondSignals)
    }

    /// A service for `group`, whose graceful shutdown gives its servers and
    /// drain work `deadline` to finish (`shutdown.deadline`). `signals`:
    /// the signals the service watches itself, on the group's first loop
    /// (`uv_signal_start`; none: the service group owns them); after the
    /// shutdown began, a signal in `secondSignals` ends it at once.
    @_disfavoredOverload
    public init(_ group: LoopGroup, deadline: Duration, signals: [Int32] = [], secondSignals: [Int32] = [SIGINT, SIGTERM]) {
        self.group = group
        self.shutdown = group.rx.gracefulShutdown(on: signals, deadline: deadline)
        self.secondSignals = secondSignals
    }

    /// Runs until the graceful shutdown has drained the daemon and the
    /// service group has asked this service to stop (or cancelled it),
    /// then shuts the group down (its loops closed, their threads joined).
    public func run() async throws {
        await shutdown.runAsService(secondSignals: secondSignals)
        do {
            try group.shutdown()
        } catch {
            // Said where it happened, as every RxUV diagnostic is.
            group.loops[0].logger.error("\(error)", error: error)
            throw error
        }
    }

    /// `LoopGroupService(n loops)`, what the service group's log names.
    public var description: String {
        "LoopGroupService(\(group.loops.count) loop\(group.loops.count == 1 ? "" : "s"))"
    }

    /// Runs this service and `services` (the daemon's `ServerService`s and
    /// any other) in one `ServiceGroup` that logs to `logger`: a daemon's
    /// `main` in one call. This service starts first and, in the group's
    /// reverse order, is asked to shut down last; a service that returns
    /// shuts the group down gracefully. When this service's shutdown is
    /// requested (by the signals it watches, or `shutdown.begin()`), the
    /// service group shuts down gracefully too; `gracefulShutdownSignals`
    /// are the service group's own (none by default: give them when this
    /// service watches no signal itself).
    ///
    /// Returns when every service has returned. A service that throws (a
    /// `ServerService` that cannot listen, which logs why at level `error`)
    /// ends the group, and its error is rethrown after the daemon was shut
    /// down.
    public func run(with services: [any Service], gracefulShutdownSignals: [UnixSignal] = [], logger: Logger) async throws {
        let configurations = ([self] + services).map { service in
            ServiceGroupConfiguration.ServiceConfiguration(service: service, successTerminationBehavior: .gracefullyShutdownGroup)
        }
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: configurations, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
        )
        let following = shutdown.requested.subscribe(onNext: { _ in
            Task { await serviceGroup.triggerGracefulShutdown() }
        })
        defer { following.dispose() }
        try await serviceGroup.run()
    }
}
