import HTTPTypes
import RxUV

/// Cuts a client connection's bytes into responses (RFC 9112): each one's
/// head, then its body as it arrives, however the bytes were split into
/// reads. A `FrameDecoder`, so `decodeFrames` runs it on `rx.data`.
///
/// A response is framed by the request it answers, so the decoder is told
/// the method of each request sent, in order (`HTTPPendingRequests`,
/// shared with the sender): a response to `HEAD`, a 1xx, 204 and 304 have
/// no body; after an interim 1xx the final response to the same request
/// follows; `101 Switching Protocols` and a 2xx to `CONNECT` end HTTP on
/// the connection (what follows is passed on as `.switched` bytes);
/// otherwise the body is `Transfer-Encoding: chunked` (trailers parsed,
/// held to the head's limits, and passed on), `Content-Length` bytes, or
/// everything up to the end of the input, which `endOfInput` ends
/// cleanly. An end of input anywhere else in a response (in its head, a
/// body short of its length, a chunked body before its last chunk) fails
/// with a `truncated` error.
///
/// Strict as `HTTPRequestDecoder` is, with the same pieces: a bare CR,
/// obsolete line folding, whitespace before a field's colon, a malformed
/// status line, an HTTP version other than 1.0 and 1.1, a status code
/// outside 100–599, `Content-Length` with `Transfer-Encoding`, conflicting
/// or malformed `Content-Length`s, a transfer coding other than `chunked`
/// alone, `Transfer-Encoding` in HTTP/1.0, a response with no request
/// pending, and the limits (`HTTPLimits`: the status line, as a request
/// line; the head; the number of fields; the body): each throws an
/// `HTTPParseError` with the status `502 Bad Gateway` (what a gateway
/// answers for an invalid response, RFC 9110 §15.6.3) and the reason.
/// Repeated `Content-Length`s with one value (as fields or as a list) are
/// taken, as RFC 9110 §8.6 allows: a client cannot choose its server, and
/// one value frames the body one way only. Lenient, where nothing can be
/// read two ways: a bare LF ends a line of the head or the trailers as
/// CRLF does (§2.2), and a status line may end right after its code (no
/// SP and reason phrase), as some servers send it.
///
/// The head is found by scanning each byte once, however slowly it arrives.
public struct HTTPResponseDecoder: FrameDecoder {
    public typealias Frame = HTTPClientResponsePart

    /// The limits it enforces.
    public let limits: HTTPLimits
    /// The methods of the requests whose responses have not begun.
    public let pending: HTTPPendingRequests
    /// The head's scan.
    var scanner = HTTPSectionScanner(.status)
    /// The last head's lines, for the next head that repeats them.
    var recent = HTTPRecentResponseLines()
    /// The body in hand, if any.
    var body: HTTPBodyDecoder
    /// The connection switched protocols: nothing more is HTTP.
    var switched = false
    /// An interim (1xx) response came, and the final one has not begun.
    var awaitingFinal = false

    /// A decoder of the responses to the requests `pending` holds (and
    /// to those appended to it later), with `limits`: by default those of
    /// `HTTPLimits` with no limit on a body's length, which a client
    /// bounds by reading it as it arrives.
    public init(pending: HTTPPendingRequests, limits: HTTPLimits = HTTPLimits(maxBodyLength: .max)) {
        self.limits = limits
        self.pending = pending
        body = HTTPBodyDecoder(limits: limits)
    }

    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> HTTPClientResponsePart? {
        try Self.asResponseError { try decodeNext(&reader) }
    }

    /// At the end of the input, bytes that make no part are a truncated
    /// response.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> HTTPClientResponsePart? {
        if let part = try decode(&reader) { return part }
        guard reader.readableBytes == 0 else {
            throw HTTPParseError(status: .badGateway, reason: body.isActive ? "truncated body" : "truncated head")
        }
        return nil
    }

    /// The end of the input: the end of a body that the close delimits;
    /// nothing between responses or after a switch of protocols; a
    /// `truncated` error inside a body, or after an interim response
    /// before its final one.
    public mutating func endOfInput() throws -> HTTPClientResponsePart? {
        guard !switched else { return nil }
        if awaitingFinal { throw HTTPParseError(status: .badGateway, reason: "truncated response: no final response after 1xx") }
        return try Self.asResponseError { try body.endOfInput().map(Self.part) }
    }

    private mutating func decodeNext(_ reader: inout ByteBuffer.Reader) throws -> HTTPClientResponsePart? {
        if switched {
            guard reader.readableBytes > 0, let bytes = reader.readBytes(reader.readableBytes) else { return nil }
            return .switched(bytes)
        }
        guard body.isActive else { return try decodeHead(&reader) }
        return try body.decode(&reader).map(Self.part)
    }

    private static func part(_ part: HTTPBodyDecoder.Part) -> HTTPClientResponsePart {
        switch part {
        case .body(let bytes): .body(bytes)
        case .end(let last, let trailers): .end(last: last, trailers: trailers)
        }
    }

    /// The shared pieces throw a request's statuses: for a response, each
    /// is an invalid response from the server.
    private static func asResponseError<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as HTTPParseError where error.status != .badGateway {
            throw HTTPParseError(status: .badGateway, reason: error.reason)
        }
    }

    // MARK: The head

    private mutating func decodeHead(_ reader: inout ByteBuffer.Reader) throws -> HTTPClientResponsePart? {
        guard let end = try scanner.sectionEnd(reader, isHead: true, limits: limits) else { return nil }
        guard let bytes = reader.readBytes(end) else { return nil }
        scanner.reset()
        guard let method = pending.first else { throw HTTPParseError(status: .badGateway, reason: "a response with no request pending") }
        let head = try bytes.withHeadBytes { try parseHead($0, method: method) }
        awaitingFinal = head.isInformational
        switch head.body {
        case .none where head.isInformational: return .head(head)
        case .none: break
        case .length(let length): body.start(.length(length))
        case .chunked: body.start(.chunked)
        case .untilClose: body.start(.untilClose)
        case .switchedProtocol: switched = true
        }
        pending.removeFirst()
        return .head(head)
    }
}
