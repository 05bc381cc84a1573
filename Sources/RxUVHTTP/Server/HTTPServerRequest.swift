import HTTPTypes
import RxUV
import Tracing

/// A request as a handler gets it: the swift-http-types `HTTPRequest`
/// (method, target as `path`, `Host` as `authority`, the header fields),
/// its body as it arrives, and where it came from.
public struct HTTPServerRequest: Sendable {
    /// The method, target and header fields.
    public var head: HTTPRequest
    /// The minor version of HTTP the client spoke: 0 or 1 for HTTP/1.x,
    /// 0 for HTTP/2.
    public var minorVersion: Int
    /// The body, streaming; empty for a request without one.
    public let body: HTTPRequestBody
    /// The values of the route's `{name}` segments, by name (set by
    /// `HTTPRouter`).
    public var parameters: [String: String]
    /// The peer, for logs (`127.0.0.1:53122`, a socket path).
    public let peer: String?
    /// The loop the connection lives on; the handler is called on its
    /// thread.
    public let loop: Loop
    /// The request asks to switch protocols (HTTP/1.1, `Upgrade`, and
    /// `upgrade` in `Connection`; RFC 9110 §7.8): a handler may answer
    /// `HTTPServerResponse.switchingProtocols(to:headerFields:_:)`.
    public var asksToUpgrade = false
    /// The major version of HTTP the client spoke: 1, or 2 for a request
    /// served by RxUVHTTP2 (one stream of an HTTP/2 connection).
    public var majorVersion = 1
    /// The request's server span, when the server traces
    /// (`HTTPServerOptions.tracer`): a child of the trace context the
    /// request's fields carry (W3C `traceparent` and `tracestate` with a
    /// W3C propagator), named after the method and, once `HTTPRouter`
    /// matched, the route. Add attributes and events to it; the server
    /// ends it when the response is written (or the connection closes).
    /// `nil` when the server does not trace.
    public var span: (any Span)? {
        trace?.span
    }
    /// The server's trace of the request, holding `span`.
    let trace: HTTPServerTrace?

    /// The span's context, to hand on to what the handler calls: the
    /// parent of a client span (`client.rx.send(_:context:)`). An `async`
    /// handler (`httpHandler`) runs with it as its task's
    /// `ServiceContext.current`. `nil` when the server does not trace.
    public var serviceContext: ServiceContext? {
        trace?.span.context
    }

    /// The target's path, without its query.
    public var path: Substring {
        let target = head.path ?? ""
        return target[..<(Self.questionMark(in: target) ?? target.endIndex)]
    }

    /// The target's query, after its `?`; `nil` without one.
    public var query: Substring? {
        guard let target = head.path, let mark = Self.questionMark(in: target) else { return nil }
        return target[target.utf8.index(after: mark)...]
    }

    /// Where the target's `?` is, found in its UTF-8 bytes at once rather
    /// than through the string's views.
    private static func questionMark(in target: String) -> String.Index? {
        var target = target
        guard let offset = target.withUTF8({ $0.firstIndex(of: UInt8(ascii: "?")) }) else { return nil }
        return target.utf8.index(target.utf8.startIndex, offsetBy: offset)
    }
}

extension HTTPServerRequest {
    /// A request of another protocol's server (HTTP/2): what a handler
    /// gets is the same value whichever version carried it.
    package init(
        head: HTTPRequest, majorVersion: Int, minorVersion: Int, body: HTTPRequestBody, peer: String?, loop: Loop,
        trace: HTTPServerTrace?
    ) {
        self.init(head: head, minorVersion: minorVersion, body: body, parameters: [:], peer: peer, loop: loop, trace: trace)
        self.majorVersion = majorVersion
    }
}
