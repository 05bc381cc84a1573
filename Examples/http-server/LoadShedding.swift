import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import Synchronization

/// Load shedding by loop: every loop's health, each second
/// (`loop.rx.health(every:)`); while a loop was busier than `bound` over
/// the last second, the requests it gets are answered
/// `503 Service Unavailable` with `Retry-After: 1` rather than handled, so
/// that a saturated loop answers at once what it would otherwise answer
/// late. `/metrics` and `/healthz` are always answered: an operator sees an
/// overloaded server too.
final class LoadShedding: Sendable {
    private let loops: [Loop]
    private let bound: Double
    /// Bit `i`: loop `i` is over the bound (at most 64 loops are watched).
    private let busy: BusyLoops
    /// The health subscriptions: disposed at shutdown, after the servers
    /// drained and before the loops close (their timers are handles).
    let watching: Disposable

    /// Watches `group`'s loops against `bound` (a share, 0 to 1).
    init(group: LoopGroup, bound: Double) {
        loops = Array(group.loops.prefix(64))
        self.bound = bound
        let busy = BusyLoops()
        self.busy = busy
        watching = Disposables.create(
            loops.enumerated().map { index, loop in
                loop.rx.health(every: .seconds(1)).subscribe(onNext: { health in
                    let bit = UInt64(1) << UInt64(index)
                    if health.utilization > bound {
                        busy.bits.bitwiseOr(bit, ordering: .relaxed)
                    } else {
                        busy.bits.bitwiseAnd(~bit, ordering: .relaxed)
                    }
                })
            })
    }

    /// `handler`, with the requests of a loop over the bound answered 503.
    func guarding(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request in
            let path = request.path
            guard path != "/metrics", path != "/healthz", isBusy(request.loop) else { return handler(request) }
            return .just(HTTPServerResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "1"], body: .string("busy: try again\n")))
        }
    }

    private func isBusy(_ loop: Loop) -> Bool {
        guard let index = loops.firstIndex(where: { $0 === loop }) else { return false }
        return busy.bits.load(ordering: .relaxed) & (UInt64(1) << UInt64(index)) != 0
    }
}

/// The loops over the bound, a bit each.
private final class BusyLoops: Sendable {
    let bits = Atomic<UInt64>(0)
}
