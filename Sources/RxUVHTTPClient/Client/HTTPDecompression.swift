/// Whether an `HTTPClient` asks for compressed responses and inflates them.
public enum HTTPDecompression: Sendable, Hashable {
    /// Bodies are read as they are sent; no `Accept-Encoding` is added.
    case disabled
    /// Requests without their own `Accept-Encoding` ask for
    /// `gzip, deflate`; a response body with `Content-Encoding: gzip` or
    /// `deflate` (one coding) is inflated as it arrives through the
    /// system's zlib, and fails with `HTTPClientError.decompression` when
    /// it is malformed, cut short, or would inflate past
    /// `maxDecodedLength` bytes (a decompression bomb is stopped there,
    /// never held). The head is the server's, as sent: its
    /// `Content-Length` is the compressed one, and the body's
    /// `declaredLength` is `nil`. Other codings are passed on as sent.
    case enabled(maxDecodedLength: Int)
}
