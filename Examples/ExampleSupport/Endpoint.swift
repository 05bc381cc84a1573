import ArgumentParser

/// A `host:port` argument: `127.0.0.1:7000`, `localhost:80`, `[::1]:7000`.
public struct Endpoint: ExpressibleByArgument, CustomStringConvertible, Hashable, Sendable {
    /// The host: a numeric address or a name to resolve.
    public let host: String
    /// The port, 1...65535.
    public let port: Int

    /// Creates an endpoint for `host` and `port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; an IPv6 host is written in brackets, `[::1]:7000`.
    public init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":") else { return nil }
        var host = String(argument[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, let port = Int(argument[argument.index(after: colon)...]), (1...65_535).contains(port) else {
            return nil
        }
        self.init(host: host, port: port)
    }

    /// `host:port`, with an IPv6 host in brackets.
    public var description: String {
        Endpoint.format(host: host, port: port)
    }

    /// `host:port`, with an IPv6 host in brackets.
    public static func format(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

}
