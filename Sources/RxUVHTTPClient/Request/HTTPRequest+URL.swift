import HTTPTypes

extension HTTPRequest {
    /// A request for `url`, an absolute `http` or `https` URL
    /// (`https://example.com:8443/a/b?c=d`): its scheme, its authority (the
    /// host, an IPv6 address in brackets, and the port when it has one) and
    /// its path with the query (`/` when it has none); a fragment is not
    /// sent. Throws `HTTPClientError.invalidRequest` for a URL without
    /// `http://` or `https://`, without a host, with user information, or
    /// with a byte a request line cannot carry (a space, a control byte, a
    /// non-ASCII byte: percent-encode it).
    public init(method: Method = .get, url: String, headerFields: HTTPFields = [:]) throws(HTTPClientError) {
        let (scheme, authority, path) = try Self.parts(of: url)
        self.init(method: method, scheme: scheme, authority: authority, path: path, headerFields: headerFields)
    }

    /// The scheme, authority and path with query of `url`.
    static func parts(of url: String) throws(HTTPClientError) -> (scheme: String, authority: String, path: String) {
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw HTTPClientError(.invalidRequest, "\"\(url)\" is not an absolute http or https URL")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw HTTPClientError(.invalidRequest, "the scheme \"\(scheme)\" of \"\(url)\" is not http or https")
        }
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty else { throw HTTPClientError(.invalidRequest, "\"\(url)\" has no host") }
        guard !authority.contains("@") else {
            throw HTTPClientError(.invalidRequest, "\"\(url)\" has user information, which is not sent")
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPClientError(.invalidRequest, "\"\(url)\" has a space, a control or a non-ASCII byte (percent-encode it)")
        }
        return (scheme, authority, path)
    }

    /// The request's URL (`https://host:port/path?query`), for messages
    /// and redirects.
    package var urlString: String {
        "\(scheme ?? "http")://\(authority ?? "")\(path ?? "/")"
    }
}
