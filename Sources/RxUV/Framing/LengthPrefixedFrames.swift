@_spi(Bridge) import RxCore

/// The length header of a length-prefixed frame: an unsigned integer of 1,
/// 2, 4 or 8 bytes, in either byte order, that counts the bytes after it.
public enum LengthHeader: Sendable, Hashable {
    /// One byte: frames of up to 255 bytes.
    case uint8
    /// Two bytes.
    case uint16(ByteBuffer.Endianness)
    /// Four bytes.
    case uint32(ByteBuffer.Endianness)
    /// Eight bytes.
    case uint64(ByteBuffer.Endianness)

    /// The header's size in bytes.
    public var size: Int {
        switch self {
        case .uint8: 1
        case .uint16: 2
        case .uint32: 4
        case .uint64: 8
        }
    }

    /// The largest length the header can carry.
    var maximum: UInt64 {
        size == 8 ? UInt64.max : (UInt64(1) << UInt64(size * 8)) - 1
    }

    /// The length at the front of `reader`, not moving it; `nil` when the
    /// header is not all there.
    func peek(_ reader: ByteBuffer.Reader) -> UInt64? {
        switch self {
        case .uint8: reader.peekInteger(as: UInt8.self).map(UInt64.init)
        case .uint16(let order): reader.peekInteger(endianness: order, as: UInt16.self).map(UInt64.init)
        case .uint32(let order): reader.peekInteger(endianness: order, as: UInt32.self).map(UInt64.init)
        case .uint64(let order): reader.peekInteger(endianness: order, as: UInt64.self)
        }
    }

    /// `length` as header bytes.
    func bytes(_ length: UInt64) -> [UInt8] {
        let big: [UInt8] = (0..<size).reversed().map { UInt8(truncatingIfNeeded: length >> UInt64($0 * 8)) }
        switch self {
        case .uint8, .uint16(.big), .uint32(.big), .uint64(.big): return big
        case .uint16(.little), .uint32(.little), .uint64(.little): return big.reversed()
        }
    }
}

/// Cuts a byte stream into frames that each start with a length header.
///
/// A frame is the bytes after its header (the header is not part of it),
/// a slice of the read when it lies inside one. A declared length over
/// `maxFrameLength` fails with `FramingError.frameTooLong` as soon as the
/// header is read, before any of the frame is buffered; one that no `Int`
/// can hold (2^63 and more, from an 8-byte header) with
/// `FramingError.lengthOverflow`. The stream ending inside a frame fails
/// with `FramingError.truncatedFrame`.
public struct LengthPrefixedFrameDecoder: FrameDecoder {
    /// The header before each frame.
    public let header: LengthHeader
    /// The longest frame accepted, in bytes, header not counted.
    public let maxFrameLength: Int

    /// A decoder for frames of at most `maxFrameLength` bytes after `header`.
    ///
    /// - Precondition: `maxFrameLength >= 0`.
    public init(header: LengthHeader, maxFrameLength: Int) {
        precondition(maxFrameLength >= 0, "LengthPrefixedFrameDecoder: maxFrameLength must not be negative")
        self.header = header
        self.maxFrameLength = maxFrameLength
    }

    /// The next frame, or `nil` while its header or bytes are not all there.
    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> ByteBuffer? {
        guard let declared = header.peek(reader) else { return nil }
        guard declared <= UInt64(Int.max) else {
            throw FramingError.lengthOverflow(declared: declared)
        }
        guard declared <= UInt64(maxFrameLength) else {
            throw FramingError.frameTooLong(length: declared, maxFrameLength: maxFrameLength)
        }
        let length = Int(declared)
        guard reader.readableBytes - header.size >= length else { return nil }
        reader.moveReaderIndex(forwardBy: header.size)
        return reader.readBytes(length)
    }
}

/// Puts a length header before each frame, the inverse of
/// `LengthPrefixedFrameDecoder`.
public struct LengthPrefixedFrameEncoder: FrameEncoder, Sendable {
    /// The header written before each frame.
    public let header: LengthHeader

    /// An encoder that writes `header` before each frame.
    public init(header: LengthHeader) {
        self.header = header
    }

    /// `frame` after its length header, in one new buffer. Throws
    /// `FramingError.frameTooLongForHeader` when the header cannot carry
    /// the length (a 256-byte frame after a one-byte header).
    public func encode(_ frame: ByteBuffer) throws(FramingError) -> ByteBuffer {
        var buffers: [ByteBuffer] = []
        try encode(frame, into: &buffers)
        return ByteBuffer(concatenating: buffers)
    }

    /// Appends the length header and `frame` (two buffers; the frame is not
    /// copied). Throws `FramingError.frameTooLongForHeader` as `encode(_:)`.
    public func encode(_ frame: ByteBuffer, into buffers: inout [ByteBuffer]) throws(FramingError) {
        guard UInt64(frame.count) <= header.maximum else {
            throw FramingError.frameTooLongForHeader(length: frame.count, headerBytes: header.size)
        }
        buffers.append(ByteBuffer(header.bytes(UInt64(frame.count))))
        buffers.append(frame)
    }
}

extension ObservableType where Element == ByteBuffer {
    /// The frames of these bytes, each after a length header:
    /// `decodeFrames(LengthPrefixedFrameDecoder(header:maxFrameLength:))`.
    ///
    /// Each frame inside one buffer is a slice of it. Fails with
    /// `FramingError.frameTooLong` on a declared length over
    /// `maxFrameLength` (before buffering the frame),
    /// `FramingError.lengthOverflow` on one of 2^63 or more, and
    /// `FramingError.truncatedFrame` when the bytes end inside a frame.
    ///
    ///     bytes (uint8 headers):  -[2 a b 1]-[c]-|
    ///     frames:                 -ab--------c---|
    public func lengthPrefixedFrames(header: LengthHeader, maxFrameLength: Int) -> Observable<ByteBuffer> {
        decodeFrames(LengthPrefixedFrameDecoder(header: header, maxFrameLength: maxFrameLength))
    }

    /// Each buffer with a length header before it, ready to write: the
    /// inverse of `lengthPrefixedFrames(header:maxFrameLength:)`. Fails with
    /// `FramingError.frameTooLongForHeader` on a buffer the header cannot
    /// count.
    public func lengthPrefixed(header: LengthHeader) -> Observable<ByteBuffer> {
        encodeFrames(LengthPrefixedFrameEncoder(header: header))
    }
}
