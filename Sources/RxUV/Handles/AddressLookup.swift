internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A `uv_getaddrinfo_t`: resolves a host name to stream socket addresses of
/// `family` on libuv's thread pool, without duplicates, in the resolver's
/// order; the completion gets libuv's status and the addresses.
/// Cancellable until the thread pool starts it.
final class AddressLookup: CompletingRequest<(status: Int32, addresses: [SocketAddress])>, @unchecked Sendable {
    init(loop: Loop, host: String, port: Int, family: AddressFamily = .any, completion: @escaping (Int32, [SocketAddress]) -> Void) throws(UVError) {
        super.init(loop: loop, type: UV_GETADDRINFO) { completion($0.status, $0.addresses) }
        var hints = addrinfo()
        hints.ai_family = family.rawValue
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let request = pointer.assumingMemoryBound(to: uv_getaddrinfo_t.self)
        try submit("uv_getaddrinfo", address: "\(host):\(port)") {
            uv_getaddrinfo(
                loop.raw, request,
                { request, status, result in
                    AddressLookup.complete(request, with: (status, AddressLookup.addresses(of: result)))
                }, host, String(port), &hints)
        }
    }

    /// The distinct addresses of a resolver's `result`, in order; frees it.
    private static func addresses(of result: UnsafeMutablePointer<addrinfo>?) -> [SocketAddress] {
        var addresses: [SocketAddress] = []
        var next = result
        while let info = next {
            if let address = info.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { raw in
                    raw.baseAddress!.copyMemory(from: address, byteCount: Int(info.pointee.ai_addrlen))
                }
                if let parsed = SocketAddress(storage: storage), !addresses.contains(parsed) {
                    addresses.append(parsed)
                }
            }
            next = info.pointee.ai_next
        }
        if let result {
            uv_freeaddrinfo(result)
        }
        return addresses
    }
}
