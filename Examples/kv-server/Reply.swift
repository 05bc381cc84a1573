import RxUV

/// One RESP2 reply.
enum Reply {
    /// `+OK`: a status line (no CR or LF inside).
    case status(String)
    /// `-ERR ...`: an error line, its bytes as they are (a client's argument
    /// quoted byte for byte, as Redis quotes it); CR and LF become spaces,
    /// as Redis writes them.
    case errorLine([UInt8])
    /// `:42`.
    case integer(Int64)
    /// `$5\r\nhello`.
    case bulk(ByteBuffer)
    /// `$2\r\n42`: a bulk string of an integer's decimal digits (a value
    /// held as an integer), written without a buffer in between.
    case bulkDigits(Int64)
    /// `$-1`: no value.
    case null
    /// `*2\r\n...`: the replies in order.
    case array([Reply])

    /// An error line of `message`'s UTF-8 bytes.
    static func error(_ message: String) -> Reply {
        .errorLine(Array(message.utf8))
    }

    /// An error line of `parts`, each a text or a client's bytes.
    static func error(_ parts: ErrorText...) -> Reply {
        .errorLine(parts.flatMap(\.bytes))
    }

    static let ok = Reply.status("OK")
    static let syntaxError = Reply.error("ERR syntax error")
    static let notAnInteger = Reply.error("ERR value is not an integer or out of range")

    /// Redis's error for a command called with the wrong number of arguments.
    static func wrongArity(_ command: String) -> Reply {
        .error("ERR wrong number of arguments for '\(command)' command")
    }

    /// Redis's error for an expiry that is out of range.
    static func invalidExpireTime(_ command: String) -> Reply {
        .error("ERR invalid expire time in '\(command)' command")
    }
}

/// A piece of an error line: text, or a client's argument as Redis's
/// `%.<limit>s` prints it (its bytes up to the first NUL, at most `limit`).
enum ErrorText: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    case text(String)
    case argument(ByteBuffer, limit: Int)
    case raw([UInt8])

    init(stringLiteral value: String) {
        self = .text(value)
    }

    init(stringInterpolation: DefaultStringInterpolation) {
        self = .text(String(stringInterpolation: stringInterpolation))
    }

    var bytes: [UInt8] {
        switch self {
        case .text(let text):
            Array(text.utf8)
        case .argument(let bytes, let limit):
            Array(bytes.prefix { $0 != 0 }.prefix(limit))
        case .raw(let bytes):
            bytes
        }
    }
}

/// The replies a connection has not written yet, encoded as RESP2: small
/// replies are copied into one growing chunk, a large bulk value is kept as
/// the buffer it is (written without a copy, in a vectored write).
struct ReplyBuffer {
    /// Bulk values at least this long are not copied into the chunk.
    private static let zeroCopyThreshold = 4096

    private var chunk: [UInt8] = []
    private var sealed: [ByteBuffer] = []
    private var sealedByteCount = 0

    /// The bytes waiting, encoded.
    var byteCount: Int { sealedByteCount + chunk.count }

    init() {
        chunk.reserveCapacity(4096)
    }

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ reply: Reply) {
        encode(reply)
    }

    /// Appends bytes that are already RESP (a pub/sub message encoded once
    /// for all its receivers).
    mutating func append(encoded bytes: ByteBuffer) {
        appendBytes(bytes)
    }

    /// Copies `bytes` into the chunk, or, when long, seals the chunk and
    /// keeps them as the buffer they are.
    private mutating func appendBytes(_ bytes: ByteBuffer) {
        if bytes.count >= Self.zeroCopyThreshold {
            seal()
            sealed.append(bytes)
            sealedByteCount += bytes.count
        } else {
            bytes.withUnsafeBytes { chunk.append(contentsOf: $0) }
        }
    }

    /// Everything waiting, in order, as buffers for one vectored write; the
    /// buffer is empty afterwards (and keeps its chunk's room).
    mutating func take() -> [ByteBuffer] {
        seal()
        let buffers = sealed
        sealed.removeAll(keepingCapacity: true)
        sealedByteCount = 0
        return buffers
    }

    private mutating func seal() {
        guard !chunk.isEmpty else { return }
        sealedByteCount += chunk.count
        sealed.append(ByteBuffer(chunk))
        chunk.removeAll(keepingCapacity: true)
    }

    private mutating func encode(_ reply: Reply) {
        switch reply {
        case .status(let text):
            chunk.append(UInt8(ascii: "+"))
            chunk.append(contentsOf: text.utf8)
            crlf()
        case .errorLine(let message):
            chunk.append(UInt8(ascii: "-"))
            for byte in message {
                chunk.append(byte == 13 || byte == 10 ? UInt8(ascii: " ") : byte)
            }
            crlf()
        case .integer(let value):
            chunk.append(UInt8(ascii: ":"))
            RedisInteger.append(value, to: &chunk)
            crlf()
        case .bulk(let value):
            bulkHeader(value.count)
            appendBytes(value)
            crlf()
        case .bulkDigits(let value):
            RedisInteger.withDigits(of: value) { digits in
                bulkHeader(digits.count)
                chunk.append(contentsOf: digits)
                crlf()
            }
        case .null:
            chunk.append(contentsOf: [UInt8(ascii: "$"), UInt8(ascii: "-"), UInt8(ascii: "1")])
            crlf()
        case .array(let elements):
            chunk.append(UInt8(ascii: "*"))
            RedisInteger.append(Int64(elements.count), to: &chunk)
            crlf()
            for element in elements {
                encode(element)
            }
        }
    }

    /// `$5\r\n`: a bulk string's length line.
    private mutating func bulkHeader(_ count: Int) {
        chunk.append(UInt8(ascii: "$"))
        RedisInteger.append(Int64(count), to: &chunk)
        crlf()
    }

    private mutating func crlf() {
        chunk.append(13)
        chunk.append(10)
    }
}

extension Reply {
    /// The reply encoded on its own (a pub/sub message, encoded once and
    /// handed to every receiver).
    var encoded: ByteBuffer {
        var buffer = ReplyBuffer()
        buffer.append(self)
        return ByteBuffer(concatenating: buffer.take())
    }
}
