import RxUV

/// What the RESP decoder cuts from a connection's bytes.
enum RESPFrame {
    /// A command and its arguments (never empty).
    case command([ByteBuffer])
    /// Input that can never be a command: the connection gets
    /// `-ERR Protocol error: <message>` and is closed, as Redis does. The
    /// message's bytes, which may quote a byte the client sent.
    case protocolError([UInt8])
}

/// The limits a `RESPDecoder` holds a client to.
struct RESPLimits {
    /// The longest inline command line, and the longest `*<count>` or
    /// `$<length>` line (Redis: 64 KiB).
    var maxInlineLength = 64 * 1024
    /// The most arguments a command may have.
    var maxArguments = 1024 * 1024
    /// The longest argument (Redis's `proto-max-bulk-len`: 512 MiB).
    var maxBulkLength = 512 * 1024 * 1024
}

/// Cuts RESP2 requests from a byte stream, as Redis reads them: arrays of
/// bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`) and inline commands
/// (`GET k\r\n`, with Redis's quoting rules). An empty command (`*0`, a
/// blank line) is skipped.
///
/// It decodes an array one argument at a time and keeps what it has, so a
/// command that arrives in many reads is not parsed again with each one. On
/// input that can never be valid it emits one `.protocolError` and then
/// drops everything that follows (the connection is closing).
struct RESPDecoder: FrameDecoder {
    let limits: RESPLimits
    /// The arguments of the array being read, and how many are still due.
    private var arguments: [ByteBuffer] = []
    private var argumentsDue = 0
    private var failed = false

    init(limits: RESPLimits) {
        self.limits = limits
    }

    mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> RESPFrame? {
        while true {
            if failed {
                reader.moveReaderIndex(forwardBy: reader.readableBytes)
                return nil
            }
            guard reader.readableBytes > 0 else { return nil }
            let step: Step
            if argumentsDue > 0 {
                step = readArgument(&reader)
            } else if reader.buffer[reader.readerIndex] == UInt8(ascii: "*") {
                step = readArrayHeader(&reader)
            } else {
                step = readInline(&reader)
            }
            switch step {
            case .needMore:
                return nil
            case .skipped:
                continue
            case .frame(let frame):
                return frame
            case .refused(let message):
                failed = true
                reader.moveReaderIndex(forwardBy: reader.readableBytes)
                return .protocolError(message)
            }
        }
    }

    /// At the end of the stream a partial command is dropped, as Redis drops
    /// it when the client goes away.
    mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> RESPFrame? {
        if let frame = try decode(&reader) { return frame }
        reader.moveReaderIndex(forwardBy: reader.readableBytes)
        return nil
    }

    private enum Step {
        case needMore
        case skipped
        case frame(RESPFrame)
        case refused([UInt8])

        /// Refused with `message`.
        static func invalid(_ message: String) -> Step {
            .refused(Array(message.utf8))
        }
    }

    /// The number of a `*<n>` or `$<n>` line (`nil` when its digits are not
    /// an integer) and the line's length, or `nil` when the CR and the byte
    /// after it have not arrived. Like Redis, looks for the CR and skips two
    /// bytes after it. The digits are read in place, not sliced.
    private func headerLine(_ reader: ByteBuffer.Reader) -> (number: Int64?, length: Int)? {
        guard let cr = reader.firstIndex(of: 13), cr + 1 < reader.readableBytes else { return nil }
        // A CR as the line's first byte leaves no digits (and no `$` either).
        let digitsStart = reader.readerIndex + 1
        let number = reader.buffer.withUnsafeBytes { bytes in
            RedisInteger.parse(UnsafeRawBufferPointer(rebasing: bytes[digitsStart..<digitsStart + max(cr - 1, 0)]))
        }
        return (number, cr + 2)
    }

    private mutating func readArrayHeader(_ reader: inout ByteBuffer.Reader) -> Step {
        guard let (number, length) = headerLine(reader) else {
            return reader.readableBytes > limits.maxInlineLength
                ? .invalid("too big mbulk count string") : .needMore
        }
        guard let count = number, count <= limits.maxArguments else {
            return .invalid("invalid multibulk length")
        }
        reader.moveReaderIndex(forwardBy: length)
        guard count > 0 else { return .skipped }
        argumentsDue = Int(count)
        arguments = []
        arguments.reserveCapacity(min(argumentsDue, 1024))
        return .skipped
    }

    private mutating func readArgument(_ reader: inout ByteBuffer.Reader) -> Step {
        guard let (number, length) = headerLine(reader) else {
            return reader.readableBytes > limits.maxInlineLength
                ? .invalid("too big bulk count string") : .needMore
        }
        let first = reader.buffer[reader.readerIndex]
        guard first == UInt8(ascii: "$") else {
            // The byte as it came, as Redis's `%c` prints it.
            return .refused(Array("expected '$', got '".utf8) + [first] + Array("'".utf8))
        }
        guard let size = number, size >= 0, size <= limits.maxBulkLength else {
            return .invalid("invalid bulk length")
        }
        // The argument and the two bytes after it (Redis does not look at them).
        guard reader.readableBytes >= length + Int(size) + 2 else { return .needMore }
        reader.moveReaderIndex(forwardBy: length)
        arguments.append(reader.readBytes(Int(size))!)
        reader.moveReaderIndex(forwardBy: 2)
        argumentsDue -= 1
        guard argumentsDue == 0 else { return .skipped }
        let command = arguments
        arguments = []
        return .frame(.command(command))
    }

    private mutating func readInline(_ reader: inout ByteBuffer.Reader) -> Step {
        guard let newline = reader.firstIndex(of: 10) else {
            return reader.readableBytes > limits.maxInlineLength
                ? .invalid("too big inline request") : .needMore
        }
        guard newline <= limits.maxInlineLength else { return .invalid("too big inline request") }
        var line = reader.readBytes(newline)!
        reader.moveReaderIndex(forwardBy: 1)
        if line.count > 0, line[line.count - 1] == 13 {
            line = line.slice(at: 0, count: line.count - 1)
        }
        guard let words = InlineArguments.split(line) else {
            return .invalid("unbalanced quotes in request")
        }
        return words.isEmpty ? .skipped : .frame(.command(words))
    }
}
