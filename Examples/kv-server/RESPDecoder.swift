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
///
/// The array a command's arguments are in is the decoder's own, handed
/// out with the frame and emptied at the next call, when the frame has been
/// run: the next command fills the same array (no allocation a command),
/// and a frame kept longer (held while the connection is unwritable) keeps
/// its arguments, since emptying a shared array leaves the other holder's
/// copy as it was.
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
        if argumentsDue == 0, !arguments.isEmpty { releaseArguments() }
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
        if let line = Self.plainHeaderLine(reader) { return line }
        guard let cr = reader.firstIndex(of: 13), cr + 1 < reader.readableBytes else { return nil }
        // A CR as the line's first byte leaves no digits (and no `$` either).
        let digitsStart = reader.readerIndex + 1
        let number = reader.buffer.withUnsafeBytes { bytes in
            RedisInteger.parse(UnsafeRawBufferPointer(rebasing: bytes[digitsStart..<digitsStart + max(cr - 1, 0)]))
        }
        return (number, cr + 2)
    }

    /// The header line every client sends: the `*` or `$`, 1 to 18 digits
    /// without a leading zero, the CR and one byte more, read in one pass
    /// over the bytes (no search for the CR, then no second pass over the
    /// digits). Any other line (a sign, a zero, a missing CR, more digits)
    /// is `nil`, and `headerLine` reads it the general way; both read a
    /// plain line to the same number and length.
    @inline(__always)
    private static func plainHeaderLine(_ reader: ByteBuffer.Reader) -> (number: Int64?, length: Int)? {
        let from = reader.readerIndex
        return reader.buffer.withUnsafeBytes { bytes -> (number: Int64?, length: Int)? in
            let start = from + 1
            let end = bytes.count
            guard start < end, bytes[start] != UInt8(ascii: "0") else { return nil }
            var index = start
            var number: Int64 = 0
            while index < end, index - start < 18 {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { break }
                number = number &* 10 &+ Int64(digit)
                index += 1
            }
            guard index > start, index + 1 < end, bytes[index] == 13 else { return nil }
            return (number, index + 2 - from)
        }
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
        return .frame(.command(arguments))
    }

    /// Lets go of the last command's arguments, which are slices of a read:
    /// with none left, the stream can read into that memory again. The
    /// array's room is kept for the next command, unless a long command
    /// made it large.
    private mutating func releaseArguments() {
        if arguments.capacity > 64 {
            arguments = []
        } else {
            arguments.removeAll(keepingCapacity: true)
        }
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
