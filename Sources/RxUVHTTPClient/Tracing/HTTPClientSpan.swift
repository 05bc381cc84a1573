import HTTPTypes
import RxUVHTTP
import Synchronization
import Tracing

/// The client span of one exchange (each hop of a redirect is one),
/// following OpenTelemetry's semantic conventions for HTTP clients: named
/// after the method, of kind `client`, a child of the caller's context,
/// which the request carries on to the server (the tracer's `inject`: W3C
/// `traceparent` for a W3C propagator). It ends when the response's head
/// arrives, when the exchange fails, or when it is disposed, whichever
/// comes first: once.
final class HTTPClientSpan: Sendable {
    private let span: any Span
    private let ended = Atomic<Bool>(false)

    /// Starts the span of `request` under `context` and injects its
    /// context into `request`'s fields.
    init(_ request: inout HTTPRequest, context: ServiceContext, tracer: any Tracer) {
        let span = tracer.startSpan(request.method.rawValue, context: context, ofKind: .client)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.full"] = request.urlString
        span.attributes["network.protocol.name"] = "http"
        span.attributes["network.protocol.version"] = "1.1"
        if let authority = request.authority {
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"), let port = Int(authority[authority.index(after: colon)...]) {
                span.attributes["server.address"] = String(authority[..<colon])
                span.attributes["server.port"] = port
            } else {
                span.attributes["server.address"] = authority
                span.attributes["server.port"] = request.scheme?.lowercased() == "https" ? 443 : 80
            }
        }
        tracer.inject(span.context, into: &request.headerFields, using: HTTPFieldsInjector())
        self.span = span
    }

    /// The response's head arrived with `status`: a 4xx or 5xx is the
    /// span's error.
    func answered(_ status: HTTPResponse.Status) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        span.attributes["http.response.status_code"] = status.code
        if status.code >= 400 {
            span.attributes["error.type"] = "\(status.code)"
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// The exchange failed with `error`.
    func failed(_ error: any Error) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        span.attributes["error.type"] = "\(type(of: error))"
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
        span.end()
    }

    /// The exchange was disposed before its head arrived.
    func cancelled() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        span.attributes["error.type"] = "cancelled"
        span.setStatus(SpanStatus(code: .error, message: "cancelled"))
        span.end()
    }
}
