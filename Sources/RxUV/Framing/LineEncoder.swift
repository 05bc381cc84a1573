/// Ends each line with a line feed (`"\n"`) or CRLF: the inverse of
/// `LineDecoder`. A line that holds a line feed would read back as two, so
/// it fails with `FramingError.delimiterInLine`.
public struct LineEncoder: FrameEncoder, Sendable {
    /// Whether each line ends with CRLF (`true`) or a line feed alone.
    public let crlf: Bool

    private static let lineFeed = ByteBuffer(string: "\n")
    private static let carriageReturnLineFeed = ByteBuffer(string: "\r\n")

    /// An encoder that ends lines with CRLF (`crlf`) or a line feed.
    public init(crlf: Bool = false) {
        self.crlf = crlf
    }

    /// Appends `line` and its delimiter (two buffers; the line is not
    /// copied).
    public func encode(_ line: ByteBuffer, into buffers: inout [ByteBuffer]) throws(FramingError) {
        guard line.firstIndex(of: 0x0A) == nil else {
            throw FramingError.delimiterInLine
        }
        buffers.append(line)
        buffers.append(crlf ? Self.carriageReturnLineFeed : Self.lineFeed)
    }
}
