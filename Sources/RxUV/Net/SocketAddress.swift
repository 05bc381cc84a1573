internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a port.
///
/// Its description is `127.0.0.1:7000` or `[::1]:7000`.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The numeric host: `127.0.0.1`, `::1`.
    public let host: String
    /// The port.
    public let port: Int
    /// `true` for an IPv6 address.
    public let isIPv6: Bool

    /// Parses a numeric IPv4 or IPv6 address (no name resolution).
    ///
    /// Throws `UVError` `EINVAL` for anything else, or a port outside 0...65535.
    /// The corresponding libuv functions are `uv_ip4_addr` and `uv_ip6_addr`.
    public init(ip: String, port: Int) throws(UVError) {
        let address = "\(ip):\(port)"
        guard (0...65_535).contains(port) else {
            throw UVError(code: UVError.Code.invalidArgument, operation: "SocketAddress", address: address)
        }
        var storage = sockaddr_storage()
        try uvCall("SocketAddress", address: address) {
            withUnsafeMutableBytes(of: &storage) { raw -> Int32 in
                if uv_ip4_addr(ip, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)) == 0 {
                    return 0
                }
                return uv_ip6_addr(ip, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self))
            }
        }
        self.init(storage: storage)!
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6`; `nil` for other families.
    init?(storage: sockaddr_storage) {
        var storage = storage
        let family = Int32(storage.ss_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        let parsed: (Int32, Int) = withUnsafeBytes(of: &storage) { raw in
            let pointer = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            let status = uv_ip_name(pointer, &name, name.count)
            if family == AF_INET {
                let port = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self).pointee.sin_port
                return (status, Int(UInt16(bigEndian: port)))
            }
            let port = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_port
            return (status, Int(UInt16(bigEndian: port)))
        }
        guard parsed.0 == 0 else { return nil }
        self.host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.port = parsed.1
        self.isIPv6 = family == AF_INET6
    }

    /// Reads the `sockaddr_in` or `sockaddr_in6` at `address`; `nil` for
    /// other families.
    init?(_ address: UnsafePointer<sockaddr>) {
        var storage = sockaddr_storage()
        let family = Int32(address.pointee.sa_family)
        let length = family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : family == AF_INET ? MemoryLayout<sockaddr_in>.size : 0
        guard length > 0 else { return nil }
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.baseAddress!.copyMemory(from: address, byteCount: length)
        }
        self.init(storage: storage)
    }

    /// `127.0.0.1:7000` or `[::1]:7000`.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` and returns its libuv status.
    func withSockAddr(_ body: (UnsafePointer<sockaddr>) -> Int32) -> Int32 {
        var storage = sockaddr_storage()
        return withUnsafeMutableBytes(of: &storage) { raw -> Int32 in
            let base = raw.baseAddress!
            let status =
                isIPv6
                ? uv_ip6_addr(host, Int32(port), base.assumingMemoryBound(to: sockaddr_in6.self))
                : uv_ip4_addr(host, Int32(port), base.assumingMemoryBound(to: sockaddr_in.self))
            if status != 0 { return status }
            return body(UnsafePointer(base.assumingMemoryBound(to: sockaddr.self)))
        }
    }
}
