/// The one rule by which the bridge turns a host and a port into socket
/// addresses, for every entry point that takes them (`connect`, `listen`,
/// `bindUDP`/`connectUDP`, `serve`, `resolve`): the port is checked first
/// (the resolver would truncate one outside 0...65535), a numeric host is
/// its own address with no lookup, and a name is looked up with
/// `uv_getaddrinfo`, whose answer reads the same everywhere.
enum AddressResolution {
    /// Throws `EINVAL` naming `operation` for a port outside 0...65535.
    static func checkPort(_ port: Int, host: String, operation: StaticString) throws(UVError) {
        guard (0...65_535).contains(port) else {
            throw UVError(code: UVError.Code.invalidArgument, operation: "\(operation)", address: "\(host):\(port)")
        }
    }

    /// `host:port` as an address when `host` is numeric (IPv4 or IPv6);
    /// `nil` when it is a name to look up. A bad port throws (see
    /// `checkPort`).
    static func numeric(host: String, port: Int, operation: StaticString) throws(UVError) -> SocketAddress? {
        try checkPort(port, host: host, operation: operation)
        return try? SocketAddress(ip: host, port: port)
    }

    /// A lookup's answer: its addresses, or its error naming `host:port`
    /// (the resolver's `EAI_*` code; an empty answer is `EAI_NONAME`).
    static func outcome(status: Int32, addresses: [SocketAddress], host: String, port: Int) -> Result<[SocketAddress], UVError> {
        guard status >= 0, !addresses.isEmpty else {
            return .failure(UVError(code: status < 0 ? UVError.Code(rawValue: status) : .unknownHost, operation: "uv_getaddrinfo", address: "\(host):\(port)"))
        }
        return .success(addresses)
    }
}
