import RxUV

/// XORs a masking key over payload bytes (RFC 6455 §5.3): how a client masks
/// what it sends and a server unmasks what it receives, the same operation
/// both ways.
///
/// Eight bytes at a time, with the key doubled into a 64-bit word; the last
/// few bytes one by one. Byte `i` of the payload is XORed with byte `i % 4`
/// of the key: a frame's payload is always masked from its first byte.
enum WebSocketMasking {
    /// XORs the key over the `source` bytes into `destination`, which holds
    /// at least as many; the two may be the same memory (in place).
    static func apply(_ key: WebSocketMaskingKey, from source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer) {
        let count = source.count
        precondition(destination.count >= count, "WebSocketMasking: the destination is shorter than the source")
        guard count > 0, let from = source.baseAddress, let to = destination.baseAddress else { return }
        let word = key.doubled
        var index = 0
        while count - index >= 8 {
            let bytes = from.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            to.storeBytes(of: bytes ^ word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        // Fewer than eight left, from a multiple of eight: key byte i % 4.
        let keyBytes = key.rawValue
        while index < count {
            let shift = UInt32(24 - 8 * (index & 3))
            let keyByte = UInt8(truncatingIfNeeded: keyBytes >> shift)
            to.storeBytes(of: from.load(fromByteOffset: index, as: UInt8.self) ^ keyByte, toByteOffset: index, as: UInt8.self)
            index += 1
        }
    }

    /// XORs the key over `bytes` in place.
    static func apply(_ key: WebSocketMaskingKey, inPlace bytes: UnsafeMutableRawBufferPointer) {
        apply(key, from: UnsafeRawBufferPointer(bytes), to: bytes)
    }

    /// A new buffer holding `payload` with the key XORed over it (one pass,
    /// one copy): masks a payload to send, unmasks one received.
    static func masked(_ payload: ByteBuffer, with key: WebSocketMaskingKey) -> ByteBuffer {
        ByteBuffer(unsafeUninitializedCapacity: payload.count) { memory in
            payload.withUnsafeBytes { apply(key, from: $0, to: memory) }
            return payload.count
        }
    }

    /// `count` bytes of `buffer` from `offset` on, with the key XORed over
    /// them, in a new buffer: unmasks a payload where it lies in a read.
    static func masked(_ buffer: ByteBuffer, at offset: Int, count: Int, with key: WebSocketMaskingKey) -> ByteBuffer {
        precondition(offset >= 0 && count >= 0 && offset <= buffer.count - count, "WebSocketMasking: out of range")
        return ByteBuffer(unsafeUninitializedCapacity: count) { memory in
            buffer.withUnsafeBytes { apply(key, from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)]), to: memory) }
            return count
        }
    }
}
