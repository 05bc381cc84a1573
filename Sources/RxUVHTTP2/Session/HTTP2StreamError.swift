import HTTPTypes

/// An HTTP/2 stream ended before its message did: the peer reset it
/// (RST_STREAM with `code`), or the connection ended (`cancel`). What
/// `HTTPRequestBody.bytes` fails with over HTTP/2 on a server, and what an
/// `HTTPClient` request (or its response's body) fails with when the
/// server resets its stream.
public struct HTTP2StreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the stream ended (`CANCEL` for a client that gave up), in
    /// swift-http-types' terms.
    public let code: HTTP2ErrorCode

    /// An error for a stream ended with `code`.
    public init(code: HTTP2ErrorCode) {
        self.code = code
    }

    /// `HTTP/2 stream reset (CANCEL (0x8))`: the code as the RFC names it,
    /// with its value.
    public var description: String {
        "HTTP/2 stream reset (\(code))"
    }
}
