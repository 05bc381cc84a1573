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

    enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: UInt64)
        case chunkDataEnd
        case trailers
    }

    /// The limits it enforces.
    public let limits: HTTPLimits
    var state = State.head
    /// Bytes of the head already scanned for its end.
    var scanned = 0
    /// Body bytes received so far, for `maxBodyLength`.
    private var bodyReceived = 0
    /// The head's first line ended within `maxRequestLineLength`.
    var sawRequestLine = false
    /// The last request line and Host, parsed once for their repeats.
    var recent = HTTPRecentHead()

    /// A decoder with `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        switch state {
        case .head:
            return try decodeHead(&reader)
        case .fixedBody(let remaining):
            guard reader.readableBytes > 0 else { return nil }
            let count = min(remaining, reader.readableBytes)
            guard let bytes = reader.readBytes(count) else { return nil }
            if count == remaining {
                state = .head
                return .end(last: bytes, trailers: nil)
            }
            state = .fixedBody(remaining: remaining - count)
            return .body(bytes)
        case .chunkSize:
            guard let line = try readLine(&reader, limit: 1024, tooLong: .badRequest("chunk size line too long")) else { return nil }
            let size = try Self.chunkSize(line)
            if size == 0 {
                state = .trailers
                scanned = 0
                return try decode(&reader)
            }
            // Compared before it is added, so no sum can overflow.
            guard size <= UInt64(limits.maxBodyLength - bodyReceived) else {
                throw HTTPParseError(status: .contentTooLarge, reason: "chunked body over \(limits.maxBodyLength) bytes")
            }
            bodyReceived += Int(size)
            state = .chunkData(remaining: size)
            return try decode(&reader)
        case .chunkData(let remaining):
            guard reader.readableBytes > 0 else { return nil }
            let count = Int(min(remaining, UInt64(reader.readableBytes)))
            guard let bytes = reader.readBytes(count) else { return nil }
            state = UInt64(count) == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - UInt64(count))
            return .body(bytes)
        case .chunkDataEnd:
            // Exactly CRLF: the line is empty.
            guard try readLine(&reader, limit: 0, tooLong: .badRequest("chunk data longer than its size")) != nil else { return nil }
            state = .chunkSize
            return try decode(&reader)
        case .trailers:
            return try decodeTrailers(&reader)
        }
    }

    // MARK: The head

    private mutating func decodeHead(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        if scanned == 0 {
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
        if scanned == 0, let repeated = recent.repeatedHead(at: reader) {
            reader.moveReaderIndex(forwardBy: recent.headLength)
            return .head(started(repeated))
        }
        guard let end = try findSectionEnd(reader, isHead: true) else { return nil }
        guard let head = reader.readBytes(end) else { return nil }
        scanned = 0
        let parsed = try head.withHeadBytes { try parseHead($0) }
        return .head(started(parsed))
    }

    /// `head` has been read: what comes next is its body, if any.
    private mutating func started(_ head: HTTPRequestHead) -> HTTPRequestHead {
        switch head.body {
        case .none: state = .head
        case .length(let length): state = .fixedBody(remaining: length)
        case .chunked:
            bodyReceived = 0
            state = .chunkSize
        }
        return head
    }
}
