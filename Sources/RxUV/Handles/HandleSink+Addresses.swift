@_spi(Bridge) import RxCore

extension HandleSink {
    /// Calls `body` with the addresses of `host:port`: at once for a numeric
    /// host, otherwise after a `uv_getaddrinfo` lookup that this subscription
    /// owns (disposing cancels it). A port outside 0...65535 throws `EINVAL`
    /// naming `operation` (the resolver would truncate it). A failed
    /// lookup, or an error `body` throws after one, ends the subscription
    /// with that error; before a lookup `body`'s error is thrown. Loop thread.
    final func withAddresses(host: String, port: Int, family: AddressFamily = .any, operation: StaticString, _ body: @escaping ([SocketAddress]) throws(UVError) -> Void) throws(UVError) {
        guard (0...65_535).contains(port) else {
            throw UVError(code: UVError.Code.invalidArgument, operation: "\(operation)", address: "\(host):\(port)")
        }
        if let address = try? SocketAddress(ip: host, port: port) {
            try body([address])
            return
        }
        let lookup = try AddressLookup(loop: loop, host: host, port: port, family: family) { [self] status, addresses in
            disown()
            guard !isDisposed else { return }
            guard status >= 0, !addresses.isEmpty else {
                forwardError(UVError(code: status < 0 ? UVError.Code(rawValue: status) : .unknownHost, operation: "uv_getaddrinfo", address: "\(host):\(port)"))
                return
            }
            do throws(UVError) {
                try body(addresses)
            } catch {
                forwardError(error)
            }
        }
        own(lookup)
    }
}
