@_spi(Bridge) import RxCore

/// Cuts a byte stream into lines ended by LF or CRLF; the delimiter is not
/// part of the line.
///
/// A CRLF split across two buffers is one delimiter. A line longer than
/// `maxLength` bytes fails with `FramingError.lineTooLong` as soon as that is
/// certain, so at most `maxLength + 1` bytes of a line are ever held. At the
/// end of the stream, bytes after the last LF are the last line (a trailing
/// CR is dropped), as a line reader does with a file whose last line has no
/// newline.
public struct LineDecoder: FrameDecoder {
    /// The longest line accepted, in bytes, delimiter not counted.
    public let maxLength: Int
    /// Bytes at the reader already known to hold no LF (not searched again).
    private var searched = 0

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// A decoder for lines of at most `maxLength` bytes.
    ///
    /// - Precondition: `maxLength >= 0`.
    public init(maxLength: Int) {
        precondition(maxLength >= 0, "LineDecoder: maxLength must not be negative")
        self.maxLength = maxLength
    }

    /// The next line, or `nil` when no LF has arrived yet.
    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> ByteBuffer? {
        guard let lineFeed = reader.firstIndex(of: Self.lineFeed, from: searched) else {
            searched = reader.readableBytes
            // A CR last may still become part of a CRLF: it does not count.
            let length = reader.readableBytes - (reader.peekInteger(at: reader.readableBytes - 1, as: UInt8.self) == Self.carriageReturn ? 1 : 0)
            if length > maxLength {
                throw FramingError.lineTooLong(maxLength: maxLength)
            }
            return nil
        }
        searched = 0
        return try readLine(&reader, through: lineFeed)
    }

    /// At the end of the stream: the bytes left are the last line.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> ByteBuffer? {
        if let line = try decode(&reader) {
            return line
        }
        searched = 0
        return try readLine(&reader, through: nil)
    }

    /// Reads the line that ends with the LF at `lineFeed` (or, with `nil`,
    /// at the end of the bytes), and moves past its delimiter.
    private func readLine(_ reader: inout ByteBuffer.Reader, through lineFeed: Int?) throws -> ByteBuffer {
        let end = lineFeed ?? reader.readableBytes
        let endsWithCR = end > 0 && reader.peekInteger(at: end - 1, as: UInt8.self) == Self.carriageReturn
        let length = end - (endsWithCR ? 1 : 0)
        if length > maxLength {
            throw FramingError.lineTooLong(maxLength: maxLength)
        }
        let line = reader.readBytes(length)!
        reader.moveReaderIndex(forwardBy: end - length + (lineFeed == nil ? 0 : 1))
        return line
    }
}

/// What `lineEvents(maxLength:)` reports: a line, or that a line was too
/// long and was dropped.
public enum LineEvent: Sendable, Hashable {
    /// A line, without its delimiter.
    case line(ByteBuffer)
    /// A line longer than `maxLength` bytes was dropped, through its LF.
    case tooLong(maxLength: Int)
}

/// Cuts a byte stream into lines like `LineDecoder`, but an over-long line
/// does not end the stream: it is reported as `.tooLong` as soon as it passes
/// the limit, and its bytes are dropped up to and including its LF, so a
/// server can answer the client and go on (what a chat or a text protocol
/// does). Nothing past the limit is buffered. At the end of the stream, the
/// bytes after the last LF are the last line, unless they belong to a
/// dropped one.
public struct LineEventDecoder: FrameDecoder {
    private var lines: LineDecoder
    /// Inside an over-long line: bytes are dropped up to its LF.
    private var dropping = false

    /// A decoder for lines of at most `maxLength` bytes.
    public init(maxLength: Int) {
        lines = LineDecoder(maxLength: maxLength)
    }

    /// The next line or over-long report, or `nil` when more bytes are needed.
    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> LineEvent? {
        if dropping, !drop(&reader) {
            return nil
        }
        do {
            return try lines.decode(&reader).map(LineEvent.line)
        } catch FramingError.lineTooLong(let maxLength) {
            lines = LineDecoder(maxLength: maxLength)
            dropping = true
            _ = drop(&reader)
            return .tooLong(maxLength: maxLength)
        }
    }

    /// At the end of the stream: the last line, or nothing when the bytes
    /// left belong to a dropped line.
    public mutating func decodeLast(_ reader: inout ByteBuffer.Reader) throws -> LineEvent? {
        if dropping, !drop(&reader) {
            return nil
        }
        if let event = try decode(&reader) {
            return event
        }
        do {
            return try lines.decodeLast(&reader).map(LineEvent.line)
        } catch FramingError.lineTooLong(let maxLength) {
            reader.moveReaderIndex(forwardBy: reader.readableBytes)
            return .tooLong(maxLength: maxLength)
        }
    }

    /// Drops bytes through the next LF; `true` when it was found (the
    /// dropping is over), `false` when every byte was dropped.
    private mutating func drop(_ reader: inout ByteBuffer.Reader) -> Bool {
        guard let lineFeed = reader.firstIndex(of: 0x0A) else {
            reader.moveReaderIndex(forwardBy: reader.readableBytes)
            return false
        }
        reader.moveReaderIndex(forwardBy: lineFeed + 1)
        dropping = false
        return true
    }
}

extension ObservableType where Element == ByteBuffer {
    /// The lines of these bytes, with over-long lines reported and skipped
    /// instead of ending the sequence: `decodeFrames(LineEventDecoder(maxLength:))`.
    ///
    ///     bytes:   -[a\nxxxxxxx]-[xx\nb\n]-|
    ///     events:  -a-tooLong-------b----|      (maxLength: 4)
    public func lineEvents(maxLength: Int) -> Observable<LineEvent> {
        decodeFrames(LineEventDecoder(maxLength: maxLength))
    }

    /// The lines of these bytes, LF or CRLF ended, without the delimiter:
    /// `decodeFrames(LineDecoder(maxLength:))`.
    ///
    /// Each line inside one buffer is a slice of it. Fails with
    /// `FramingError.lineTooLong` on a line longer than `maxLength` bytes;
    /// at completion, bytes after the last LF are emitted as the last line.
    /// Use `map(\.string)` for `String`s.
    ///
    ///     bytes:  -[ab\r]-[\ncd\n]-[e]-|
    ///     lines:  --------ab--cd-------e|
    public func lines(maxLength: Int) -> Observable<ByteBuffer> {
        decodeFrames(LineDecoder(maxLength: maxLength))
    }
}
