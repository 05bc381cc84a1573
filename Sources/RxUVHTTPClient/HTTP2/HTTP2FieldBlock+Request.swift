import HTTPTypes
import RxUVHTTP
import RxUVHTTP2

extension HTTP2FieldBlock {
    /// A request's header block for HTTP/2 (RFC 9113 §8.3.1): `:method`,
    /// `:scheme`, `:authority`, `:path`,
    /// then its fields in lower case but `host` and HTTP/1.1's connection
    /// fields, `te` but `trailers`, `expect` (the body goes at once), and
    /// its own `content-length`, then `content-length` when the body's
    /// length is known.
    init(request head: HTTPRequestHead, isSecure: Bool) {
        self.init()
        let request = head.request
        append(":method", request.method.rawValue)
        append(":scheme", isSecure ? "https" : "http")
        // Every request the client sends has an authority (`HTTPPoolKey`).
        if let authority = request.authority {
            append(":authority", authority)
        }
        append(":path", request.path ?? "/")
        for field in request.headerFields {
            let name = field.name.canonicalName
            switch name {
            case "host", "content-length", "expect":
                continue
            case "te" where field.value.lowercased() != "trailers":
                continue
            default:
                if Self.isConnectionSpecific(name) { continue }
                append(name, field.value)
            }
        }
        if case .length(let length) = head.body {
            append("content-length", String(length))
        }
    }
}
