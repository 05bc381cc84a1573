internal import CLibUV

/// A `uv_getnameinfo_t`: looks up the host name and service of an address
/// on libuv's thread pool; the completion gets libuv's status, the host and
/// the service. Cancellable until the thread pool starts it.
final class NameLookup: CompletingRequest<(status: Int32, host: String, service: String)>, @unchecked Sendable {
    init(loop: Loop, address: SocketAddress, completion: @escaping (Int32, String, String) -> Void) throws(UVError) {
        super.init(loop: loop, type: UV_GETNAMEINFO) { completion($0.status, $0.host, $0.service) }
        let request = pointer.assumingMemoryBound(to: uv_getnameinfo_t.self)
        try submit("uv_getnameinfo", address: address.description) {
            address.withSockAddr {
                uv_getnameinfo(
                    loop.raw, request,
                    { request, status, host, service in
                        NameLookup.complete(request, with: (status, host.map { String(cString: $0) } ?? "", service.map { String(cString: $0) } ?? ""))
                    }, $0, 0)
            }
        }
    }
}
