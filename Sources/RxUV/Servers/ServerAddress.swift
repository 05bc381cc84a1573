/// Where a `Server` listens: an IP address and port, or a Unix-domain
/// socket path.
public enum ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A TCP server's address, with the port the kernel chose for port 0.
    case ip(SocketAddress)
    /// A Unix-domain server's socket path (an abstract name starts with a NUL).
    case unix(String)

    /// The TCP port; 0 for a Unix-domain socket.
    public var port: Int {
        if case .ip(let address) = self { address.port } else { 0 }
    }

    /// The IP address and port; `nil` for a Unix-domain socket.
    public var socketAddress: SocketAddress? {
        if case .ip(let address) = self { address } else { nil }
    }

    /// The socket path; `nil` for an IP address.
    public var unixPath: String? {
        if case .unix(let path) = self { path } else { nil }
    }

    /// `127.0.0.1:7000`, `[::1]:7000`, or `unix:/run/app.sock` (`unix:@name`
    /// for an abstract name).
    public var description: String {
        switch self {
        case .ip(let address): address.description
        case .unix(let path): "unix:" + UnixSocketPath.display(path)
        }
    }
}
