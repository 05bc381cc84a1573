/// How much of a request a decoder takes before it refuses it.
public struct HTTPLimits: Sendable, Hashable {
    /// The longest request line, in bytes; longer: `414 URI Too Long`.
    public var maxRequestLineLength: Int
    /// The longest head (request line and header section), in bytes;
    /// longer: `431 Request Header Fields Too Large`.
    public var maxHeadLength: Int
    /// The most header fields; more: `431`.
    public var maxHeaderFields: Int
    /// The largest body, in bytes (declared or, chunked, received); larger:
    /// `413 Content Too Large`.
    public var maxBodyLength: Int

    /// 8 KiB request line, 32 KiB head, 100 fields, 1 MiB body by default.
    public init(maxRequestLineLength: Int = 8 * 1024, maxHeadLength: Int = 32 * 1024, maxHeaderFields: Int = 100, maxBodyLength: Int = 1 << 20) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeadLength = maxHeadLength
        self.maxHeaderFields = maxHeaderFields
        self.maxBodyLength = maxBodyLength
    }
}
