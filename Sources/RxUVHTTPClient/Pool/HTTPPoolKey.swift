import HTTPTypes
import RxUVHTTP2

/// Where a request goes, and so which pool of connections serves it: the
/// scheme (`http` or `https`), the host (lower-cased; an IPv6 address
/// without its brackets), the port (by default 80 or 443), and the HTTP
/// versions its connections may speak.
struct HTTPPoolKey: Hashable, Sendable, CustomStringConvertible {
    var isSecure: Bool
    var host: String
    var port: Int
    /// The versions the pool's connections speak: HTTP/1.1 only unless
    /// the request's exchange says otherwise (`HTTPClientExchange`).
    var versions = Versions.http1

    /// Which HTTP a pool's connections speak.
    enum Versions: Hashable, Sendable {
        /// HTTP/1.1 (TLS offers ALPN `http/1.1`).
        case http1
        /// What TLS's ALPN agrees on: `h2`, else HTTP/1.1.
        case negotiated
        /// HTTP/2 only: with prior knowledge over cleartext (`h2c`), ALPN
        /// `h2` over TLS (a server that does not agree fails the connect).
        case http2

        /// The versions a request's connections speak when the client
        /// allows `versions`: HTTP/1.1 for an upgrade (HTTP/2 has none),
        /// and HTTP/2 over cleartext only when HTTP/1.1 is not allowed.
        init(_ versions: HTTPVersions, isSecure: Bool, upgrades: Bool) {
            if upgrades || !versions.contains(.http2) {
                self = .http1
            } else if !versions.contains(.http1) {
                self = .http2
            } else {
                self = isSecure ? .negotiated : .http1
            }
        }

        /// What TLS offers through ALPN, most preferred first.
        var applicationProtocols: [String] {
            switch self {
            case .http1: ["http/1.1"]
            case .negotiated: ["h2", "http/1.1"]
            case .http2: ["h2"]
            }
        }
    }

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
        // On the UTF-8 bytes: every delimiter is ASCII, so no Character is
        // made (a `Character` search breaks graphemes at every step).
        let bytes = authority.utf8
        guard !bytes.contains(UInt8(ascii: "@")) else {
            throw HTTPClientError(.invalidRequest, "user information in the authority \"\(authority)\" is not sent")
        }
        var hostPart = Substring(authority)
        var portPart: Substring?
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no closing bracket")
            }
            hostPart = authority[bytes.index(after: bytes.startIndex)..<close]
            let rest = authority[bytes.index(after: close)...]
            if !rest.isEmpty {
                guard rest.utf8.first == UInt8(ascii: ":") else {
                    throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" is malformed")
                }
                portPart = rest[rest.utf8.index(after: rest.startIndex)...]
            }
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<colon]
            portPart = authority[bytes.index(after: colon)...]
        }
        // Printable ASCII but "/".
        guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no valid host")
        }
        host = hostPart.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? hostPart.lowercased() : String(hostPart)
        if let portPart, !portPart.isEmpty {
            // RFC 3986 §3.2.3: digits only.
            let digits = portPart.utf8
            guard digits.count <= 5, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                case let port = digits.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }), (1...65535).contains(port)
            else {
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
