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
    init(_ request: borrowing HTTPRequest) throws(HTTPClientError) {
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
        guard var authority = request.authority, !authority.isEmpty else {
            throw HTTPClientError(.invalidRequest, "the request has no authority (host and port)")
        }
        switch authority.withUTF8(Self.split) {
        case .success(let parts):
            host = parts.host
            port = parts.port ?? (isSecure ? 443 : 80)
        case .failure(.userInformation):
            throw HTTPClientError(.invalidRequest, "user information in the authority \"\(authority)\" is not sent")
        case .failure(.noClosingBracket):
            throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no closing bracket")
        case .failure(.malformed):
            throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" is malformed")
        case .failure(.noValidHost):
            throw HTTPClientError(.invalidRequest, "the authority \"\(authority)\" has no valid host")
        case .failure(.badPort):
            throw HTTPClientError(.invalidRequest, "the port in \"\(authority)\" is not a number from 1 to 65535")
        }
    }

    /// What is wrong with an authority.
    private enum AuthorityFault: Error {
        case userInformation
        case noClosingBracket
        case malformed
        case noValidHost
        case badPort
    }

    /// An authority's UTF-8 bytes split into its host (lower-cased, an IPv6
    /// address without its brackets) and its port (`nil` when none is
    /// given, or the colon has no digits after it). Every delimiter is
    /// ASCII, so the bytes are read as they are, with no `Character` made.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<(host: String, port: Int?), AuthorityFault> {
        guard !bytes.contains(UInt8(ascii: "@")) else { return .failure(.userInformation) }
        var hostRange = 0..<bytes.count
        var portStart: Int?
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return .failure(.noClosingBracket) }
            hostRange = 1..<close
            if close + 1 < bytes.count {
                guard bytes[close + 1] == UInt8(ascii: ":") else { return .failure(.malformed) }
                portStart = close + 2
            }
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            hostRange = 0..<colon
            portStart = colon + 1
        }
        // Printable ASCII but "/".
        let host = UnsafeBufferPointer(rebasing: bytes[hostRange])
        guard !host.isEmpty, host.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else { return .failure(.noValidHost) }
        var port: Int?
        if let portStart, portStart < bytes.count {
            // RFC 3986 §3.2.3: digits only.
            let digits = UnsafeBufferPointer(rebasing: bytes[portStart...])
            guard digits.count <= 5, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                case let value = digits.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }), (1...65535).contains(value)
            else { return .failure(.badPort) }
            port = value
        }
        return .success((host: lowercased(host), port: port))
    }

    /// `host`'s bytes as a `String`, ASCII letters lower-cased (a host is
    /// ASCII here: checked before).
    private static func lowercased(_ host: UnsafeBufferPointer<UInt8>) -> String {
        guard host.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            return String(decoding: host, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: host.count) { memory in
            for (index, byte) in host.enumerated() {
                memory[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            }
            return host.count
        }
    }

    /// `https://host:port`.
    var description: String {
        "\(isSecure ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
