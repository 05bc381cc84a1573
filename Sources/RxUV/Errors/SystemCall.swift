#if canImport(Glibc)
import Glibc
#endif

/// The one choke point for raw system calls, beside `uvCall` for libuv's:
/// every `socket`, `bind`, `listen`, `accept4`, `setsockopt`, `chmod`,
/// `lstat`, `unlink`, `connect`, `fcntl` and `open` the bridge makes runs
/// through it.
///
/// `call` returns the system call's result; a negative result is a failure
/// whose `errno` becomes a `UVError` naming `operation` (and the address,
/// formatted only then). `EINTR` is retried here, so no caller loops on it.
/// A call that may find nothing to do names that answer in `tolerated`
/// (`EAGAIN` for `accept4` on a non-blocking socket): that failure returns
/// -1 instead of throwing, and nothing is formatted for it. In debug builds
/// a fault armed with `UVFaultInjection.inject` for `operation` replaces the
/// call, as for `uvCall`.
@discardableResult
@inline(__always)
func systemCall(
    _ operation: StaticString, address: @autoclosure () -> String? = nil, tolerating tolerated: Int32 = 0, _ call: () -> Int32
) throws(UVError) -> Int32 {
    #if TRACE_RESOURCES || DEBUG
    if let forced = UVFaultInjection.forcedStatus(for: operation) {
        if tolerated != 0, forced == -tolerated { return -1 }
        throw UVError(status: forced, operation: "\(operation)", address: address())
    }
    #endif
    while true {
        let result = call()
        if result >= 0 {
            return result
        }
        let code = errno
        if code == tolerated {
            return -1
        }
        if code != EINTR {
            throw UVError(code: UVError.Code(rawValue: -code), operation: "\(operation)", address: address())
        }
    }
}

/// Closes a descriptor the bridge owns (`close(2)`). Not retried on
/// `EINTR`: Linux has released the descriptor by then, and a second close
/// could close one another thread has just opened.
func systemClose(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
}
