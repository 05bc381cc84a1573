extension ByteBuffer {
    /// The order of the bytes of an integer: most significant first (`big`,
    /// network order) or least significant first (`little`).
    public enum Endianness: Sendable, Hashable {
        /// Most significant byte first, network byte order.
        case big
        /// Least significant byte first.
        case little
    }

    /// A cursor over a buffer, for decoders: reads integers, byte runs and
    /// strings from the front and moves past them.
    ///
    /// Byte runs it reads are slices of the buffer (no copy). Every read
    /// returns `nil`, and moves nothing, when too few bytes are left, so a
    /// decoder can return "need more bytes" without undoing anything.
    public struct Reader: Sendable {
        /// The whole buffer being read.
        public let buffer: ByteBuffer
        /// How many bytes have been read.
        public private(set) var readerIndex = 0

        /// A reader at the start of `buffer`.
        public init(_ buffer: ByteBuffer) {
            self.buffer = buffer
        }

        /// How many bytes are left to read.
        @inlinable
        public var readableBytes: Int {
            buffer.count - readerIndex
        }

        /// The bytes left to read, as a slice (no copy).
        public var remaining: ByteBuffer {
            buffer.slice(at: readerIndex, count: readableBytes)
        }

        /// Moves past `count` bytes without reading them.
        ///
        /// - Precondition: `0 <= count <= readableBytes`.
        public mutating func moveReaderIndex(forwardBy count: Int) {
            precondition(count >= 0 && count <= readableBytes, "ByteBuffer.Reader: cannot move past the end")
            readerIndex += count
        }

        /// The next `count` bytes, as a slice, without moving; `nil` when
        /// fewer are left.
        public func peekBytes(_ count: Int) -> ByteBuffer? {
            guard count >= 0, count <= readableBytes else { return nil }
            return buffer.slice(at: readerIndex, count: count)
        }

        /// Reads the next `count` bytes, as a slice; `nil` when fewer are left.
        public mutating func readBytes(_ count: Int) -> ByteBuffer? {
            guard let bytes = peekBytes(count) else { return nil }
            readerIndex += count
            return bytes
        }

        /// Reads the next `count` bytes as UTF-8 (invalid sequences
        /// replaced); `nil` when fewer are left.
        public mutating func readString(_ count: Int) -> String? {
            readBytes(count)?.string
        }

        /// The integer stored in the `MemoryLayout<Integer>.size` bytes that
        /// start `offset` bytes after the reader, without moving; `nil` when
        /// they are not all there.
        // Inlinable: a decoder in another module then reads an integer of
        // its own type with no generic call.
        @inlinable
        public func peekInteger<Integer: FixedWidthInteger>(
            at offset: Int = 0,
            endianness: Endianness = .big,
            as type: Integer.Type = Integer.self
        ) -> Integer? {
            let size = MemoryLayout<Integer>.size
            guard offset >= 0, offset <= readableBytes - size else { return nil }
            var value = Integer.zero
            buffer.withUnsafeBytes { bytes in
                withUnsafeMutableBytes(of: &value) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(readerIndex + offset)..<(readerIndex + offset + size)]))
                }
            }
            return endianness == .big ? Integer(bigEndian: value) : Integer(littleEndian: value)
        }

        /// Reads an integer of `MemoryLayout<Integer>.size` bytes in the
        /// given byte order; `nil` when fewer bytes are left.
        public mutating func readInteger<Integer: FixedWidthInteger>(
            endianness: Endianness = .big,
            as type: Integer.Type = Integer.self
        ) -> Integer? {
            guard let value = peekInteger(endianness: endianness, as: type) else { return nil }
            readerIndex += MemoryLayout<Integer>.size
            return value
        }

        /// The position, counted from the reader, of the first `byte` at or
        /// after `start` bytes from the reader; `nil` if none is left.
        public func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
            guard start >= 0, start < readableBytes else { return nil }
            return buffer.firstIndex(of: byte, from: readerIndex + start).map { $0 - readerIndex }
        }
    }
}
