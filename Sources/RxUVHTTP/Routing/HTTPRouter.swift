import HTTPTypes
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// Routes requests by method and path to handlers: a path pattern is
/// segments separated by `/`, each literal, a `{name}` that takes one
/// segment (percent-decoded into `request.parameters[name]`), or, last, a
/// `*` that takes the rest (into `parameters["*"]`).
///
///     var router = HTTPRouter()
///     router.get("/users/{id}") { request in .just(.text("user \(request.parameters["id"]!)")) }
///     loop.rx.serveHTTP(host: "127.0.0.1", port: 8080, handler: router.handler)
///
/// A route of literal segments only whose path is the request's path as
/// sent (up to its query) is taken first; otherwise routes are tried in the
/// order they were added. A path no route takes
/// is `404 Not Found`; a path taken only for other methods is
/// `405 Method Not Allowed` with their `Allow`; `HEAD` falls back to a
/// `GET` route (the server then sends no body); a malformed percent escape
/// in a parameter is `400 Bad Request`.
public struct HTTPRouter: Sendable {
    private struct Route: Sendable {
        let method: HTTPRequest.Method
        let pattern: HTTPRoutePattern
        let handler: HTTPHandler
    }

    private var routes: [Route] = []

    /// The routes of literal paths, by path: compared in turn while there
    /// are a few (`mostCompared`), looked up by hash beyond that.
    private enum LiteralRoutes: Sendable {
        case few([(path: [UInt8], routes: [Route])])
        case many([String: [Route]])

        static var mostCompared: Int { 8 }

        init(_ paths: [String: [Route]]) {
            self = paths.count <= Self.mostCompared ? .few(paths.map { (Array($0.key.utf8), $0.value) }) : .many(paths)
        }

        /// The routes of the path whose UTF-8 bytes are `path`.
        subscript(path: UnsafeBufferPointer<UInt8>) -> [Route]? {
            switch self {
            case .few(let entries):
                for entry in entries where entry.path.count == path.count {
                    let same = path.isEmpty || entry.path.withUnsafeBufferPointer { memcmp($0.baseAddress!, path.baseAddress!, path.count) == 0 }
                    if same { return entry.routes }
                }
                return nil
            case .many(let paths):
                return paths[String(decoding: path, as: UTF8.self)]
            }
        }
    }

    /// A router with no routes.
    public init() {}

    /// Routes `method` requests whose path matches `pattern` to `handler`.
    public mutating func add(_ method: HTTPRequest.Method, _ pattern: String, handler: @escaping HTTPHandler) {
        routes.append(Route(method: method, pattern: HTTPRoutePattern(pattern), handler: handler))
    }

    /// Routes `method` requests whose path matches `pattern` to the
    /// `async` `handler`, run on the connection's loop.
    public mutating func add(_ method: HTTPRequest.Method, _ pattern: String, handler: @escaping HTTPAsyncHandler) {
        add(method, pattern, handler: httpHandler(handler))
    }

    /// `add(.get, pattern, handler:)`.
    public mutating func get(_ pattern: String, handler: @escaping HTTPHandler) {
        add(.get, pattern, handler: handler)
    }

    /// `add(.get, pattern, handler:)` with an `async` handler.
    public mutating func get(_ pattern: String, handler: @escaping HTTPAsyncHandler) {
        add(.get, pattern, handler: handler)
    }

    /// `add(.post, pattern, handler:)`.
    public mutating func post(_ pattern: String, handler: @escaping HTTPHandler) {
        add(.post, pattern, handler: handler)
    }

    /// `add(.post, pattern, handler:)` with an `async` handler.
    public mutating func post(_ pattern: String, handler: @escaping HTTPAsyncHandler) {
        add(.post, pattern, handler: handler)
    }

    /// The handler that routes: what `serveHTTP` takes. It routes to the
    /// routes added before it was read; a route added later is not seen by
    /// a handler read earlier.
    public var handler: HTTPHandler {
        // The fast path: a route of literal segments, by the path as sent.
        // Every route is then tried in order (the same path spelled with
        // `//` or a trailing `/`, parameters, `*`).
        var paths: [String: [Route]] = [:]
        for route in routes {
            if let path = route.pattern.literalPath {
                paths[path, default: []].append(route)
            }
        }
        let literal = LiteralRoutes(paths)
        return { [literal, routes] request in
            let method = request.head.method
            var allowed: [HTTPRequest.Method] = []
            // The path as sent, up to its query, in the target's bytes.
            var target = request.head.path ?? ""
            let literalRoutes = target.withUTF8 { bytes in
                literal[UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex)])]
            }
            if let routes = literalRoutes {
                for route in routes {
                    if route.method == method || (method == .head && route.method == .get) {
                        request.trace?.routed(method, route: route.pattern.text)
                        return route.handler(request)
                    }
                    if !allowed.contains(route.method) { allowed.append(route.method) }
                }
            }
            // Every pattern is matched against the path's bytes, got once.
            var path = request.path
            let found = path.withUTF8 { bytes -> (Route, [String: String]?)? in
                for route in routes {
                    guard let parameters = route.pattern.match(bytes) else { continue }
                    guard route.method == method || (method == .head && route.method == .get) else {
                        if !allowed.contains(route.method) { allowed.append(route.method) }
                        continue
                    }
                    return (route, parameters)
                }
                return nil
            }
            if let (route, parameters) = found {
                guard let parameters else { return .error(HTTPError(.badRequest, message: "malformed percent escape")) }
                var routed = request
                routed.parameters = parameters
                request.trace?.routed(method, route: route.pattern.text)
                return route.handler(routed)
            }
            guard allowed.isEmpty else {
                var fields = HTTPFields()
                fields[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                fields[.contentType] = "text/plain; charset=utf-8"
                return .just(HTTPServerResponse(status: .methodNotAllowed, headerFields: fields, body: .string("Method Not Allowed\n")))
            }
            return .error(HTTPError(.notFound))
        }
    }
}
