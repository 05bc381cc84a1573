import HTTPTypes

/// Where a request goes, and so which pool of connections serves it: the
/// scheme (`http` or `https`), the host (lower-cased; an IPv6 address
/// without its brackets) and the port (by default 80 or 443).
struct HTTPPoolKey: Hashable, Sendable, CustomStringConvertible {
    var isSecure: Bool
    var host: String
    var port: Int

    /// The key of `request`'s scheme and authority; throws
    /// `HTTPClientError.invalidRequest` for a scheme other than `http` and
    /// `https`, no authority, user information in it, or a bad port.
    init(_ request: HTTPRequest) throws(HTTPClientError) {
        switch request.scheme {
        case "http": isSecure = false
        case "https": isSecure = true
        case let scheme?:
            switch scheme.lowercased() {
            case "http": isSecure = false
            case "https": isSecure = true
            default: throw HTTPClientError(.invalidRequest, "the scheme \"\(scheme)\" is not http or https")
            }
        case nil: throw HTTPClientError(.invalidRequest, "the request has no scheme (http or https)")
        }
        guard let authority = request.authority, !authority.isEmpty else {
            throw HTTPClientError(.invalidRequest, "the request has no authority (host and port)")
        }
        guard !authority.contains("@") else {
            throw HTTPClientError(.invalidRequest, "user information in the authority \"\(authority)\" is not sent")
        }
        var hostPart = Substring(authority)
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no closing bracket")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" is malformed") }
                portPart = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        // Printable ASCII but "/", checked on the bytes.
        guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no valid host")
        }
        host = hostPart.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? hostPart.lowercased() : String(hostPart)
        if let portPart, !portPart.isEmpty {
            guard portPart.utf8.count <= 5, let port = Int(portPart), (1...65535).contains(port) else {
                throw HTTPClientError(.invalidRequest, "the port in \"\(authority)\" is not a number from 1 to 65535")
            }
            self.port = port
        } else {
            port = isSecure ? 443 : 80
        }
    }

    /// `https://host:port`.
    var description: String {
        "\(isSecure ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
