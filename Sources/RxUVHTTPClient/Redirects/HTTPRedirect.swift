import HTTPTypes

/// The request a redirect response leads to, by RFC 9110 §15.4: the
/// `Location` resolved against the request's URL (RFC 3986 §5.2); `303`
/// turns any method but `HEAD` into `GET` without a body, and so do `301`
/// and `302` for a `POST` (what every user agent does); `307` and `308`
/// keep the method and the body. A request whose body is dropped loses
/// the fields that described it; one sent to another origin loses its
/// credentials (`Authorization`, `Cookie`, `Proxy-Authorization`).
struct HTTPRedirect {
    let request: HTTPRequest
    let body: HTTPClientRequestBody

    /// The redirect `response` to `request` leads to, or `nil` when it is
    /// none (another status, no `Location`) or cannot be followed with the
    /// body (a stream, sent once). Throws `HTTPClientError.redirect` for a
    /// `Location` that is not a usable URL.
    init?(following request: HTTPRequest, body: HTTPClientRequestBody, response: HTTPClientResponse) throws(HTTPClientError) {
        let code = response.statusCode
        guard [301, 302, 303, 307, 308].contains(code), let location = response.headerFields[.location] else { return nil }
        let target = try Self.resolve(location, against: request)
        var next = request
        next.scheme = target.scheme
        next.authority = target.authority
        next.path = target.path
        var nextBody = body
        let becomesGet = code == 303 ? request.method != .head : (code == 301 || code == 302) && request.method == .post
        if becomesGet {
            next.method = code == 303 && request.method == .head ? .head : .get
            nextBody = .empty
            for name in [HTTPField.Name.contentLength, .contentType, .contentEncoding, .transferEncoding, .expect] {
                next.headerFields[name] = nil
            }
            next.headerFields[HTTPField.Name("Content-Language")!] = nil
        } else if !body.isReplayable {
            return nil
        }
        if target.scheme != request.scheme?.lowercased() || target.authority.lowercased() != request.authority?.lowercased() {
            for name in [HTTPField.Name.authorization, .cookie, .proxyAuthorization] {
                next.headerFields[name] = nil
            }
        }
        self.request = next
        self.body = nextBody
    }

    /// `location` resolved against `request`'s URL: an absolute URL, one
    /// without a scheme (`//host/path`), an absolute path, a query, or a
    /// path relative to the request's directory (its dot segments removed).
    static func resolve(_ location: String, against request: HTTPRequest) throws(HTTPClientError) -> (scheme: String, authority: String, path: String) {
        let location = location.trimmingWhitespace
        let scheme = request.scheme?.lowercased() ?? "http"
        let authority = request.authority ?? ""
        let base = request.path ?? "/"
        if location.contains("://") {
            do {
                return try HTTPRequest.parts(of: location)
            } catch {
                throw HTTPClientError(.redirect, "the redirect's Location \"\(location)\" is not an http or https URL")
            }
        }
        if location.hasPrefix("//") {
            return try resolve(scheme + ":" + location, against: request)
        }
        guard location.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPClientError(.redirect, "the redirect's Location \"\(location)\" has a byte a request cannot carry")
        }
        var target = location
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        let basePath = String(base.prefix { $0 != "?" })
        if target.isEmpty {
            return (scheme, authority, base)
        }
        if target.hasPrefix("?") {
            return (scheme, authority, basePath + target)
        }
        let merged: String
        if target.hasPrefix("/") {
            merged = target
        } else {
            let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            merged = directory + target
        }
        return (scheme, authority, removingDotSegments(merged))
    }

    /// `path` (with its query) with its `.` and `..` segments removed
    /// (RFC 3986 §5.2.4).
    static func removingDotSegments(_ path: String) -> String {
        let query = path.firstIndex(of: "?").map { String(path[$0...]) } ?? ""
        let pathPart = path.prefix { $0 != "?" }
        var output: [Substring] = []
        let segments = pathPart.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/") + query
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
