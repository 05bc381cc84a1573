/// The one choke point for libuv statuses: a negative status becomes a
/// `UVError` naming the operation (and address); a non-negative one is returned.
@discardableResult
func uvCheck(_ status: Int32, _ operation: String, address: String? = nil) throws(UVError) -> Int32 {
    if status < 0 {
        throw UVError(code: status, operation: operation, address: address)
    }
    return status
}
