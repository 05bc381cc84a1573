@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Resolves `host` to its addresses (`uv_getaddrinfo`, on libuv's thread
    /// pool), each with `port`, without duplicates, in the resolver's order.
    ///
    /// A numeric address resolves to itself. A port outside 0...65535
    /// fails with `EINVAL`. Otherwise fails with the lookup's
    /// `UVError`, naming the host: `EAI_NONAME` for an unknown name,
    /// `EAI_AGAIN` for a temporary failure. The result arrives on the loop
    /// thread. Disposing cancels the lookup (`uv_cancel`) if the thread pool
    /// has not started it, and otherwise drops the answer.
    public func resolve(host: String, port: Int = 0, family: AddressFamily = .any) -> Single<[SocketAddress]> {
        Single(
            raw: RequestSingle(loop: base, operation: "uv_getaddrinfo") { loop, finish throws(UVError) in
                try AddressResolution.checkPort(port, host: host, operation: "uv_getaddrinfo")
                return try AddressLookup(loop: loop, host: host, port: port, family: family) { status, addresses in
                    finish(AddressResolution.outcome(status: status, addresses: addresses, host: host, port: port).mapError { $0 })
                }
            })
    }

    /// Looks up the host name and service name of `address`
    /// (`uv_getnameinfo`, on libuv's thread pool): for example
    /// `("localhost", "http")` for `127.0.0.1:80`. Without a name the numeric
    /// forms come back.
    ///
    /// Fails with the lookup's `UVError` (an `EAI_*` code) naming the
    /// address. The result arrives on the loop thread. Disposing cancels the
    /// lookup if the thread pool has not started it, and otherwise drops the
    /// answer.
    public func reverseLookup(_ address: SocketAddress) -> Single<(host: String, service: String)> {
        Single(
            raw: RequestSingle(loop: base, operation: "uv_getnameinfo") { loop, finish throws(UVError) in
                try NameLookup(loop: loop, address: address) { status, host, service in
                    if status < 0 {
                        finish(.failure(UVError(status: status, operation: "uv_getnameinfo", address: address.description)))
                    } else {
                        finish(.success((host: host, service: service)))
                    }
                }
            })
    }
}
