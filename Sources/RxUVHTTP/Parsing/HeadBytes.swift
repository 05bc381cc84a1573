import RxUV

/// A head (or a trailer section) as the decoder reads it: the bytes of the
/// buffer it was cut from, in place, for as long as it is parsed.
typealias HeadBytes = UnsafeBufferPointer<UInt8>
/// A line of a head, or a part of one.
typealias HeadSlice = Slice<HeadBytes>

extension Slice where Base == HeadBytes {
    /// These bytes as a `String` (UTF-8, repaired), made from them as one
    /// buffer: `String(decoding:as:)` on the slice itself takes the generic
    /// path, which validates through the runtime's metadata.
    var string: String {
        String(decoding: UnsafeBufferPointer(rebasing: self), as: UTF8.self)
    }
}

extension ByteBuffer {
    /// The byte at `index`, if there is one.
    func first(at index: Int) -> UInt8? {
        index < count ? self[index] : nil
    }

    /// Runs `body` over this buffer's bytes in place: a head is parsed
    /// where it was read, not copied into an array first (an allocation
    /// and a copy per request). Nothing `body` returns may keep them.
    func withHeadBytes<Result>(_ body: (HeadBytes) throws -> Result) throws -> Result {
        try withUnsafeBytes { raw in
            try body(HeadBytes(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
    }
}
