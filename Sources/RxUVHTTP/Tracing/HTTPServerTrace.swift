import HTTPTypes
import Tracing

/// The server span of one request, following OpenTelemetry's semantic
/// conventions for HTTP servers: named after the method (then the method
/// and the route, once `HTTPRouter` matched one), of kind `server`, a
/// child of the trace context the request's header fields carry. A class,
/// so that a request and its exchange hold one reference (nil when the
/// server does not trace) rather than an existential each.
package final class HTTPServerTrace: Sendable {
    /// The span.
    package let span: any Span

    /// Starts the span of `request`, under the context `tracer` extracts
    /// from its header fields (W3C `traceparent` for a W3C propagator);
    /// `protocolVersion` is HTTP's (`1.1`, `2`).
    package init(_ request: HTTPRequest, protocolVersion: String, peer: String?, tracer: any Tracer) {
        var context = ServiceContext.topLevel
        tracer.extract(request.headerFields, into: &context, using: HTTPFieldsExtractor())
        let span = tracer.startSpan(request.method.rawValue, context: context, ofKind: .server)
        span.attributes["http.request.method"] = request.method.rawValue
        let target = request.path ?? ""
        if let mark = target.firstIndex(of: "?") {
            span.attributes["url.path"] = String(target[..<mark])
            span.attributes["url.query"] = String(target[target.index(after: mark)...])
        } else {
            span.attributes["url.path"] = target
        }
        span.attributes["network.protocol.name"] = "http"
        span.attributes["network.protocol.version"] = protocolVersion
        if let authority = request.authority {
            span.attributes["server.address"] = authority
        }
        if let peer, let colon = peer.lastIndex(of: ":"), let port = Int(peer[peer.index(after: colon)...]) {
            span.attributes["client.address"] = String(peer[..<colon])
            span.attributes["client.port"] = port
        } else if let peer {
            span.attributes["client.address"] = peer
        }
        if let agent = request.headerFields[.userAgent] {
            span.attributes["user_agent.original"] = agent
        }
        self.span = span
    }

    /// Notes the response's status on `span`: a 5xx is the server's error
    /// (a 4xx is the client's, not the span's).
    package func answered(_ status: HTTPResponse.Status) {
        span.attributes["http.response.status_code"] = status.code
        if status.kind == .serverError {
            span.attributes["error.type"] = "\(status.code)"
            span.setStatus(SpanStatus(code: .error))
        }
    }

    /// Notes the route that matched (`/users/{id}`): the span is named
    /// `GET /users/{id}`.
    func routed(_ method: HTTPRequest.Method, route: String) {
        span.attributes["http.route"] = route
        span.operationName = "\(method.rawValue) \(route)"
    }

    /// The handler failed with `error`.
    package func failed(_ error: any Error) {
        span.recordError(error)
    }

    /// The connection closed before the response was written.
    package func cutShort() {
        span.setStatus(SpanStatus(code: .error, message: "the connection closed before the response was written"))
    }

    /// Ends the span: the exchange is over.
    package func end() {
        span.end()
    }
}
