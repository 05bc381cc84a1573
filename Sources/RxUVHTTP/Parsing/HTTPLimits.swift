/// How much of a message a decoder takes before it refuses it: of a
/// request (`HTTPRequestDecoder`, with the statuses below) or of a response
/// (`HTTPResponseDecoder`, which refuses with `502 Bad Gateway`).
public struct HTTPLimits: Sendable, Hashable {
    /// The longest request line (or a response's status line), in bytes;
    /// longer: `414 URI Too Long`.
    public var maxRequestLineLength: Int
    /// The longest head (first line and header section), and the longest
    /// trailer section, in bytes;
    /// longer: `431 Request Header Fields Too Large`.
    public var maxHeadLength: Int
    /// The longest field line (`name: value`, without its line end) of the
    /// header or trailer section, in bytes; longer: `431`.
    public var maxFieldLineLength: Int
    /// The most header fields (and trailer fields); more: `431`.
    public var maxHeaderFields: Int
    /// The largest body, in bytes (declared or, chunked, received); larger:
    /// `413 Content Too Large`.
    public var maxBodyLength: Int

    /// 8 KiB request line, 32 KiB head, 16 KiB field line, 100 fields,
    /// 1 MiB body by default.
    public init(
        maxRequestLineLength: Int = 8 * 1024, maxHeadLength: Int = 32 * 1024, maxFieldLineLength: Int = 16 * 1024, maxHeaderFields: Int = 100,
        maxBodyLength: Int = 1 << 20
    ) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeadLength = maxHeadLength
        self.maxFieldLineLength = maxFieldLineLength
        self.maxHeaderFields = maxHeaderFields
        self.maxBodyLength = maxBodyLength
    }
}
