#if TRACE_RESOURCES || DEBUG
import Synchronization

/// Debug-only fault injection for the libuv call layer (`uvCall`).
///
/// `inject(_:into:)` makes the next call(s) of a named libuv function fail
/// with a chosen status without calling libuv, so tests can check what a
/// failure does to an Observable (its error, that nothing crashes, that no
/// handle or object leaks) without having to provoke the failure for real:
///
///     UVFaultInjection.inject(-EADDRINUSE, into: "bind")
///     defer { UVFaultInjection.removeAll() }
///
/// Calls made through the two choke points can fail this way: `uvCall` and
/// `uvStatus`, which every status-returning libuv call the bridge relies on
/// goes through (`uv_loop_init`, `uv_*_init`, `uv_timer_start`,
/// `uv_signal_start`, `uv_read_start`, `uv_write`, `uv_shutdown`,
/// `uv_tcp_connect`, `uv_getaddrinfo`, `uv_loop_close`...), and
/// `systemCall`, which every raw system call goes through (`socket`,
/// `bind`, `listen`, `accept`, `setsockopt`, `chmod`, `dup`...). Compiled only in
/// debug builds (`TRACE_RESOURCES` or `DEBUG`); release builds have no switch
/// and no check.
enum UVFaultInjection {
    private struct Fault {
        var status: Int32
        /// Calls still to let through before failing.
        var skip: Int
        /// Failures still to force; the fault is removed at 0.
        var remaining: Int
    }

    private struct State {
        var faults: [String: Fault] = [:]
        var fired: [String: Int] = [:]
    }

    private static let state = Mutex(State())
    /// Lets `uvCall` skip the lock while nothing is armed.
    private static let isArmed = Atomic<Bool>(false)

    /// Makes calls of `operation` (a libuv function name such as
    /// `"uv_write"`) fail with `status` (a negative libuv code): the first
    /// `after` calls run normally, the next `times` calls fail without
    /// reaching libuv. Replaces an earlier fault for the same operation.
    static func inject(_ status: Int32, into operation: String, after: Int = 0, times: Int = 1) {
        precondition(status < 0, "UVFaultInjection: a forced status must be a negative libuv error code")
        precondition(after >= 0 && times > 0, "UVFaultInjection: after >= 0, times > 0")
        state.withLock { $0.faults[operation] = Fault(status: status, skip: after, remaining: times) }
        isArmed.store(true, ordering: .releasing)
    }

    /// Disarms every fault and forgets the counts of fired faults.
    static func removeAll() {
        state.withLock { $0 = State() }
        isArmed.store(false, ordering: .releasing)
    }

    /// How many times a fault forced a failure of `operation` since the last
    /// `removeAll()`.
    static func firedCount(_ operation: String) -> Int {
        state.withLock { $0.fired[operation] ?? 0 }
    }

    /// The status to force for this call of `operation`, or `nil` to make the
    /// real call. Counts the call.
    static func forcedStatus(for operation: StaticString) -> Int32? {
        guard isArmed.load(ordering: .acquiring) else { return nil }
        let name = "\(operation)"
        return state.withLock { state -> Int32? in
            guard var fault = state.faults[name] else { return nil }
            if fault.skip > 0 {
                fault.skip -= 1
                state.faults[name] = fault
                return nil
            }
            fault.remaining -= 1
            state.faults[name] = fault.remaining > 0 ? fault : nil
            state.fired[name, default: 0] += 1
            return fault.status
        }
    }
}
#endif
