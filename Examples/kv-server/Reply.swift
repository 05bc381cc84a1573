import RxUV

/// One RESP2 reply.
enum Reply {
    /// `+OK`: a status line (no CR or LF inside).
    case status(String)
    /// `-ERR ...`: an error line; CR and LF in `message` become spaces, as
    /// Redis writes them.
    case error(String)
    /// `:42`.
    case integer(Int64)
    /// `$5\r\nhello`.
    case bulk(ByteBuffer)
    /// `$-1`: no value.
    case null
    /// `*2\r\n...`: the replies in order.
    case array([Reply])

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
        case .error(let message):
            chunk.append(UInt8(ascii: "-"))
            for byte in message.utf8 {
                chunk.append(byte == 13 || byte == 10 ? UInt8(ascii: " ") : byte)
            }
            crlf()
        case .integer(let value):
            chunk.append(UInt8(ascii: ":"))
            RedisInteger.append(value, to: &chunk)
            crlf()
        case .bulk(let value):
            chunk.append(UInt8(ascii: "$"))
            RedisInteger.append(Int64(value.count), to: &chunk)
            crlf()
            appendBytes(value)
            crlf()
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
