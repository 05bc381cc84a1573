/// Why a byte stream could not be cut into frames. A framing operator ends
/// its sequence with this error; what follows in the stream is not read.
public enum FramingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line longer than `maxLength` bytes (its delimiter not counted).
    case lineTooLong(maxLength: Int)
    /// A frame that declares `length` bytes, more than `maxFrameLength`.
    case frameTooLong(length: UInt64, maxFrameLength: Int)
    /// A length header whose value does not fit in an `Int` (from 2^63 on):
    /// no frame can be that long.
    case lengthOverflow(declared: UInt64)
    /// The stream ended inside a frame: `bytesLeft` bytes that make no whole
    /// frame.
    case truncatedFrame(bytesLeft: Int)
    /// A frame too long for the length header meant to carry it.
    case frameTooLongForHeader(length: Int, headerBytes: Int)
    /// A line to encode holds a line feed: it would read back as two lines.
    case delimiterInLine

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .lineTooLong(let maxLength):
            "a line is longer than \(maxLength) bytes"
        case .frameTooLong(let length, let maxFrameLength):
            "a frame declares \(length) bytes, more than the limit of \(maxFrameLength)"
        case .lengthOverflow(let declared):
            "a frame declares \(declared) bytes, a length no frame can have"
        case .truncatedFrame(let bytesLeft):
            "the stream ended inside a frame (\(bytesLeft) bytes left)"
        case .frameTooLongForHeader(let length, let headerBytes):
            "a \(length)-byte frame does not fit a \(headerBytes)-byte length header"
        case .delimiterInLine:
            "a line to write holds a line feed"
        }
    }
}
