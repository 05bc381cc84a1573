/// The one choke point for libuv calls that return a status: `call` runs,
/// a negative status becomes a `UVError` naming the operation (and address),
/// a non-negative one is returned. The address is formatted only on failure.
///
/// In debug builds (`TRACE_RESOURCES` or `DEBUG`) a fault armed with
/// `UVFaultInjection.inject` for `operation` replaces the call: `call` does
/// not run and the forced status is returned, exactly as libuv behaves when
/// a call fails (it does nothing and never calls the callback).
@discardableResult
@inline(__always)
func uvCall(_ operation: StaticString, address: @autoclosure () -> String? = nil, _ call: () -> Int32) throws(UVError) -> Int32 {
    #if TRACE_RESOURCES || DEBUG
    if let forced = UVFaultInjection.forcedStatus(for: operation) {
        throw UVError(status: forced, operation: "\(operation)", address: address())
    }
    #endif
    let status = call()
    if status < 0 {
        throw UVError(status: status, operation: "\(operation)", address: address())
    }
    return status
}

/// The same choke point for a libuv call whose negative status is an answer
/// the caller handles, not a failure to throw (`uv_try_write`'s `UV_EAGAIN`):
/// returns the status as it is. A fault armed for `operation` (debug
/// builds) replaces the call here too, so a write fails the same way
/// whichever call makes it.
@inline(__always)
func uvStatus(_ operation: StaticString, _ call: () -> Int32) -> Int32 {
    #if TRACE_RESOURCES || DEBUG
    if let forced = UVFaultInjection.forcedStatus(for: operation) {
        return forced
    }
    #endif
    return call()
}
