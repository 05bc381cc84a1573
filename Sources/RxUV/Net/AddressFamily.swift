#if canImport(Glibc)
import Glibc
#endif

/// Which addresses a name lookup asks for (`ai_family`).
public enum AddressFamily: Sendable, Hashable {
    /// IPv4 and IPv6 (`AF_UNSPEC`), in the resolver's order.
    case any
    /// IPv4 only (`AF_INET`).
    case ipv4
    /// IPv6 only (`AF_INET6`).
    case ipv6

    /// The `ai_family` value.
    var rawValue: Int32 {
        switch self {
        case .any: AF_UNSPEC
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        }
    }
}
