internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a port.
///
/// Its description is `127.0.0.1:7000` or `[::1]:7000`.
///
/// It keeps the address as the kernel gave it (a `sockaddr_in` or
/// `sockaddr_in6`) and writes the numeric host when asked (`host`,
/// `description`). Equality and hashing compare the family, the address,
/// the port and, for IPv6, the scope.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as a `sockaddr_in6`'s bytes; a `sockaddr_in` in its
    /// first 16 (the rest zero). The flow label is not kept.
    private let raw: sockaddr_in6

    /// The numeric host: `127.0.0.1`, `::1`.
    public var host: String {
        withUnsafeBytes(of: raw) { bytes in
            // 46 bytes hold any IPv6 text (INET6_ADDRSTRLEN).
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { name in
                let status = uv_ip_name(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), name.baseAddress!, name.count)
                guard status == 0 else { return "" }
                return String(cString: name.baseAddress!)
            }
        }
    }

    /// The port.
    public var port: Int {
        Int(UInt16(bigEndian: raw.sin6_port))
    }

    /// `true` for an IPv6 address.
    public var isIPv6: Bool {
        Int32(raw.sin6_family) == AF_INET6
    }

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
        guard let address = withUnsafePointer(to: &storage, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.read($0) } }) else {
            return nil
        }
        raw = address
    }

    /// Reads the `sockaddr_in` or `sockaddr_in6` at `address`; `nil` for
    /// other families.
    init?(_ address: UnsafePointer<sockaddr>) {
        guard let read = Self.read(address) else { return nil }
        raw = read
    }

    /// The address at `address` in a `sockaddr_in6`'s bytes, or `nil` for a
    /// family other than IPv4 and IPv6.
    private static func read(_ address: UnsafePointer<sockaddr>) -> sockaddr_in6? {
        let family = Int32(address.pointee.sa_family)
        var copy = sockaddr_in6()
        switch family {
        case AF_INET:
            // Family, port and address; `sin_zero` stays zero.
            withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: 8)) }
        case AF_INET6:
            copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            copy.sin6_flowinfo = 0
        default:
            return nil
        }
        return copy
    }

    /// `127.0.0.1:7000` or `[::1]:7000`.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` and returns its libuv status.
    func withSockAddr(_ body: (UnsafePointer<sockaddr>) -> Int32) -> Int32 {
        withUnsafeBytes(of: raw) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    public static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        withUnsafeBytes(of: lhs.raw) { left in withUnsafeBytes(of: rhs.raw) { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: raw) { hasher.combine(bytes: $0) }
    }
}
