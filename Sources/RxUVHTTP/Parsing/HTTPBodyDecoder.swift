import HTTPTypes
import RxUV

/// A message's body as it arrives, framed as its head says (RFC 9112 §6):
/// `Content-Length` bytes, chunks up to the last one and the trailers
/// (`+Chunks`), or everything up to the end of the input. What the request
/// and the response decoders share once a head is read: each starts it
/// with the head's framing and passes on its parts as its own.
struct HTTPBodyDecoder {
    /// How a body is delimited.
    enum Framing: Equatable {
        /// `Content-Length` bytes (more than zero).
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Everything up to the end of the input (a response only, §6.3).
        case untilClose
    }

    /// A piece of the body.
    enum Part {
        /// Body bytes (a slice of what was read: no copy).
        case body(ByteBuffer)
        /// The end: its last bytes (of a `Content-Length` body; empty for
        /// the others) and the trailer fields of a chunked one.
        case end(last: ByteBuffer, trailers: HTTPFields?)
    }

    enum State {
        /// No body in hand.
        case done
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: UInt64)
        case chunkDataEnd
        case trailers
        case untilClose
    }

    /// The limits it enforces: the body's length, the trailers' size.
    let limits: HTTPLimits
    var state = State.done
    /// Body bytes received so far, for `maxBodyLength`.
    private var received = 0
    /// The trailer section's scan.
    var scanner = HTTPSectionScanner(.request)

    init(limits: HTTPLimits) {
        self.limits = limits
    }

    /// Whether a body is in hand.
    var isActive: Bool {
        if case .done = state { return false }
        return true
    }

    /// A body framed by `framing` comes next.
    mutating func start(_ framing: Framing) {
        received = 0
        switch framing {
        case .length(let length): state = .fixed(remaining: length)
        case .chunked: state = .chunkSize
        case .untilClose: state = .untilClose
        }
    }

    /// The next piece of the body from the front of `reader`, or `nil`
    /// when more bytes are needed. After `.end`, no body is in hand.
    mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> Part? {
        switch state {
        case .done:
            preconditionFailure("HTTPBodyDecoder: no body in hand")
        case .fixed(let remaining):
            guard reader.readableBytes > 0 else { return nil }
            let count = min(remaining, reader.readableBytes)
            guard let bytes = reader.readBytes(count) else { return nil }
            if count == remaining {
                state = .done
                return .end(last: bytes, trailers: nil)
            }
            state = .fixed(remaining: remaining - count)
            return .body(bytes)
        case .chunkSize:
            guard let line = try readLine(&reader, limit: 1024, tooLong: .badRequest("chunk size line too long")) else { return nil }
            let size = try Self.chunkSize(line)
            if size == 0 {
                state = .trailers
                scanner.reset()
                return try decode(&reader)
            }
            try count(size)
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
        case .untilClose:
            guard reader.readableBytes > 0 else { return nil }
            // Bytes up to the limit are passed on, and the first byte past
            // it refused, so that what comes before the refusal is the
            // same however the bytes were cut.
            let count = min(reader.readableBytes, limits.maxBodyLength - received)
            try self.count(UInt64(count == 0 ? 1 : count))
            guard let bytes = reader.readBytes(count) else { return nil }
            return .body(bytes)
        }
    }

    /// `size` more body bytes: counted against `maxBodyLength`.
    private mutating func count(_ size: UInt64) throws {
        // Compared before it is added, so no sum can overflow.
        guard size <= UInt64(limits.maxBodyLength - received) else {
            throw HTTPParseError(status: .contentTooLarge, reason: "body over \(limits.maxBodyLength) bytes")
        }
        received += Int(size)
    }

    /// The input ended with every byte read: the end of a body that the
    /// end delimits, `nil` with no body in hand, and an error for a body
    /// cut short.
    mutating func endOfInput() throws -> Part? {
        switch state {
        case .done:
            return nil
        case .untilClose:
            state = .done
            return .end(last: ByteBuffer(), trailers: nil)
        case .fixed(let remaining):
            throw HTTPParseError.badRequest("truncated body: \(remaining) bytes missing")
        case .chunkSize, .chunkData, .chunkDataEnd:
            throw HTTPParseError.badRequest("truncated body: chunks missing")
        case .trailers:
            throw HTTPParseError.badRequest("truncated trailers")
        }
    }
}
