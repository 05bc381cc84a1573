@_spi(Bridge) import RxCore

extension HandleSink {
    /// Calls `body` with the addresses of `host:port` (`AddressResolution`):
    /// at once for a numeric host, otherwise after a `uv_getaddrinfo` lookup
    /// that this subscription owns (disposing cancels it). A port outside
    /// 0...65535 throws `EINVAL` naming `operation`. A failed lookup, or an
    /// error `body` throws after one, ends the subscription with that error;
    /// before a lookup `body`'s error is thrown. Loop thread.
    final func withAddresses(host: String, port: Int, family: AddressFamily = .any, operation: StaticString, _ body: @escaping ([SocketAddress]) throws(UVError) -> Void) throws(UVError) {
        if let address = try AddressResolution.numeric(host: host, port: port, operation: operation) {
            try body([address])
            return
        }
        let lookup = try AddressLookup(loop: loop, host: host, port: port, family: family) { [self] status, addresses in
            disown()
            guard !isDisposed else { return }
            do throws(UVError) {
                try body(AddressResolution.outcome(status: status, addresses: addresses, host: host, port: port).get())
            } catch {
                forwardError(error)
            }
        }
        own(lookup)
    }
}
