internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A `uv_write_t` with the bytes it writes, kept alive until libuv is done.
final class WriteRequest: UVRequest {
    private let payload: StreamWritePayload
    private var completion: ((Int32) -> Void)?

    /// Submits the bytes of `payload` from byte `offset` on for writing on
    /// `stream` (`uv_write`, with one `uv_buf_t` per buffer); `completion`
    /// gets libuv's status. Throws if the submit fails (no callback follows).
    init(stream: UVStream, payload: StreamWritePayload, from offset: Int = 0, peer: @autoclosure () -> String?, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.payload = payload
        self.completion = completion
        super.init(type: UV_WRITE)
        let request = pointer.assumingMemoryBound(to: uv_write_t.self)
        try submit("uv_write", address: peer()) {
            payload.withBuffers(from: offset) { buffers, count in
                uv_write(request, stream.stream, buffers, UInt32(count), uvWriteCompleted)
            }
        }
    }

    fileprivate func finish(_ status: Int32) {
        let completion = self.completion
        self.completion = nil
        completion?(status)
    }
}

private func uvWriteCompleted(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    UVRequest.complete(request, as: WriteRequest.self).finish(status)
}

/// A `uv_shutdown_t`: half-closes a stream after its queued writes.
final class ShutdownRequest: UVRequest {
    private var completion: ((Int32) -> Void)?

    init(stream: UVStream, peer: @autoclosure () -> String?, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.completion = completion
        super.init(type: UV_SHUTDOWN)
        try submit("uv_shutdown", address: peer()) {
            uv_shutdown(pointer.assumingMemoryBound(to: uv_shutdown_t.self), stream.stream, uvShutdownCompleted)
        }
    }

    fileprivate func finish(_ status: Int32) {
        let completion = self.completion
        self.completion = nil
        completion?(status)
    }
}

private func uvShutdownCompleted(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    UVRequest.complete(request, as: ShutdownRequest.self).finish(status)
}

/// A `uv_connect_t` for one TCP connection attempt.
final class ConnectRequest: UVRequest {
    private var completion: ((Int32) -> Void)?

    init(tcp: UVTCP, to address: SocketAddress, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.completion = completion
        super.init(type: UV_CONNECT)
        let request = pointer.assumingMemoryBound(to: uv_connect_t.self)
        try submit("uv_tcp_connect", address: address.description) {
            address.withSockAddr { uv_tcp_connect(request, tcp.tcp, $0, uvConnectCompleted) }
        }
    }

    fileprivate func finish(_ status: Int32) {
        let completion = self.completion
        self.completion = nil
        completion?(status)
    }
}

private func uvConnectCompleted(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    UVRequest.complete(request, as: ConnectRequest.self).finish(status)
}

/// A `uv_getaddrinfo_t`: resolves a host name to stream socket addresses of
/// `family` on libuv's thread pool, without duplicates, in the resolver's
/// order. Cancellable until the thread pool starts it.
final class AddressLookup: UVRequest {
    private var completion: ((Int32, [SocketAddress]) -> Void)?

    init(loop: Loop, host: String, port: Int, family: AddressFamily = .any, completion: @escaping (Int32, [SocketAddress]) -> Void) throws(UVError) {
        self.completion = completion
        super.init(type: UV_GETADDRINFO)
        var hints = addrinfo()
        hints.ai_family = family.rawValue
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let request = pointer.assumingMemoryBound(to: uv_getaddrinfo_t.self)
        try submit("uv_getaddrinfo", address: "\(host):\(port)") {
            uv_getaddrinfo(loop.raw, request, uvAddressesResolved, host, String(port), &hints)
        }
    }

    fileprivate func finish(_ status: Int32, _ result: UnsafeMutablePointer<addrinfo>?) {
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
        let completion = self.completion
        self.completion = nil
        completion?(status, addresses)
    }
}

private func uvAddressesResolved(_ request: UnsafeMutablePointer<uv_getaddrinfo_t>?, _ status: Int32, _ result: UnsafeMutablePointer<addrinfo>?) {
    UVRequest.complete(request, as: AddressLookup.self).finish(status, result)
}

/// A `uv_getnameinfo_t`: looks up the host name and service of an address on
/// libuv's thread pool. Cancellable until the thread pool starts it.
final class NameLookup: UVRequest {
    private var completion: ((Int32, String, String) -> Void)?

    init(loop: Loop, address: SocketAddress, completion: @escaping (Int32, String, String) -> Void) throws(UVError) {
        self.completion = completion
        super.init(type: UV_GETNAMEINFO)
        let request = pointer.assumingMemoryBound(to: uv_getnameinfo_t.self)
        try submit("uv_getnameinfo", address: address.description) {
            address.withSockAddr { uv_getnameinfo(loop.raw, request, uvNameResolved, $0, 0) }
        }
    }

    fileprivate func finish(_ status: Int32, _ host: UnsafePointer<CChar>?, _ service: UnsafePointer<CChar>?) {
        let completion = self.completion
        self.completion = nil
        completion?(status, host.map { String(cString: $0) } ?? "", service.map { String(cString: $0) } ?? "")
    }
}

private func uvNameResolved(_ request: UnsafeMutablePointer<uv_getnameinfo_t>?, _ status: Int32, _ host: UnsafePointer<CChar>?, _ service: UnsafePointer<CChar>?) {
    UVRequest.complete(request, as: NameLookup.self).finish(status, host, service)
}
