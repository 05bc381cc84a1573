import HTTPTypes
import RxUV

/// Cuts a server connection's bytes into requests (RFC 9112): each one's
/// head, then its body as it arrives, however the bytes were split into
/// reads. A `FrameDecoder`, so `decodeFrames` runs it on `rx.data`.
///
/// Strict where the RFC says MUST, and where leniency is how requests are
/// smuggled past a proxy: a bare CR, a field name with whitespace before
/// its colon, obsolete line folding, a missing or repeated `Host` in
/// HTTP/1.1, `Content-Length` with `Transfer-Encoding`, a repeated or
/// non-numeric `Content-Length`, a transfer coding other than `chunked`, a
/// chunk size that does not fit in 63 bits: each throws an
/// `HTTPParseError` with the status the RFC names (400, 413, 414, 431, 501,
/// 505), after which the connection cannot be trusted. Lenient where the
/// RFC allows it and nothing can be smuggled: empty lines before a request
/// line are skipped (§2.2), a bare LF ends a line of the head or the
/// trailers as CRLF does (§2.2); a chunk line must end with CRLF.
///
/// The head is found by scanning each byte once, however slowly it arrives.
public struct HTTPRequestDecoder: FrameDecoder {
    public typealias Frame = HTTPRequestPart

    /// The limits it enforces.
    public let limits: HTTPLimits
    /// The head's scan.
    var scanner = HTTPSectionScanner(.request)
    /// The body in hand, if any.
    var body: HTTPBodyDecoder
    /// The last request line and Host, parsed once for their repeats.
    var recent = HTTPRecentHead()

    /// A decoder with `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        body = HTTPBodyDecoder(limits: limits)
    }

    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        guard body.isActive else { return try decodeHead(&reader) }
        switch try body.decode(&reader) {
        case nil: return nil
        case .body(let bytes): return .body(bytes)
        case .end(let last, let trailers): return .end(last: last, trailers: trailers)
        }
    }

    // MARK: The head

    private mutating func decodeHead(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        if scanner.atStart {
            while let first = reader.buffer.first(at: reader.readerIndex) {
                if first == HTTPSyntax.lf {
                    reader.moveReaderIndex(forwardBy: 1)
                } else if first == HTTPSyntax.cr, reader.readableBytes >= 2 {
                    guard reader.buffer.first(at: reader.readerIndex + 1) == HTTPSyntax.lf else {
                        throw HTTPParseError.badRequest("bare CR")
                    }
                    reader.moveReaderIndex(forwardBy: 2)
                } else {
                    break
                }
            }
            if reader.readableBytes == 1, reader.buffer.first(at: reader.readerIndex) == HTTPSyntax.cr { return nil }
        }
        // A head that repeats the last one, byte for byte, decodes to what
        // that one did.
        if scanner.atStart, let repeated = recent.repeatedHead(at: reader) {
            reader.moveReaderIndex(forwardBy: recent.headLength)
            return .head(started(repeated, reader))
        }
        guard let end = try scanner.sectionEnd(reader, isHead: true, limits: limits) else { return nil }
        guard let head = reader.readBytes(end) else { return nil }
        scanner.reset()
        let parsed = try head.withHeadBytes { try parseHead($0) }
        return .head(started(parsed, reader))
    }

    /// `head` has been read (`reader` is past it): what comes next is its
    /// body, if any. A head that asks to upgrade notes whether bytes
    /// followed it, which the server must not take for the new protocol's.
    private mutating func started(_ head: HTTPRequestHead, _ reader: ByteBuffer.Reader) -> HTTPRequestHead {
        switch head.body {
        case .none: break
        case .length(let length): body.start(.length(length))
        case .chunked: body.start(.chunked)
        }
        guard head.asksToUpgrade else { return head }
        var upgrading = head
        upgrading.followedByBytes = reader.readableBytes > 0
        return upgrading
    }
}
