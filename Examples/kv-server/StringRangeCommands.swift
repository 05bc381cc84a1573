import RxUV

/// The commands that read or write part of a string: SETRANGE, GETRANGE
/// (and its old name SUBSTR), SETBIT and GETBIT, with Redis's replies,
/// errors and keyspace events.
///
/// Bounds: GETRANGE and GETBIT copy at most the part they return; SETRANGE
/// and SETBIT write a new copy of the value (values are immutable
/// buffers), so one call costs O(the value's length after it), at most
/// 512 MiB, Redis's `proto-max-bulk-len`, which both refuse to exceed.
extension Keyspace {
    /// SETRANGE key offset value: the length after writing `value` at
    /// `offset`, the gap filled with zero bytes.
    func setrange(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let offset = RedisInteger.parse(args[2]) else { return .notAnInteger }
        guard offset >= 0 else { return .error("ERR offset is out of range") }
        let patch = args[3]
        return withStore { store in
            let old = store.lookup(args[1], now: now)
            guard !patch.isEmpty else { return .integer(Int64(old?.value.count ?? 0)) }
            guard offset <= Int64(Self.maxStringLength - patch.count) else { return Self.tooLong }
            let current = old?.value.bytes ?? ByteBuffer()
            let length = max(current.count, Int(offset) + patch.count)
            let updated = ByteBuffer(unsafeUninitializedCapacity: length) { output in
                output.initializeMemory(as: UInt8.self, repeating: 0)
                current.withUnsafeBytes { output.copyMemory(from: $0) }
                patch.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: output[Int(offset)...]).copyMemory(from: $0) }
                return length
            }
            if old == nil {
                store.set(args[1], updated, expiresAt: 0, compact: true)
            } else {
                store.replaceValue(args[1], updated, compact: true)
            }
            store.note(.string, "setrange", args[1])
            return .integer(Int64(length))
        }
    }

    /// GETRANGE / SUBSTR key start end: the bytes from `start` to `end`
    /// inclusive, negative indexes counting from the end.
    func getrange(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard var start = RedisInteger.parse(args[2]), var end = RedisInteger.parse(args[3]) else { return .notAnInteger }
        return withStore { store in
            guard let value = store.lookup(args[1], now: now)?.value.bytes else { return .bulk(ByteBuffer()) }
            let length = Int64(value.count)
            if start < 0 && end < 0 && start > end { return .bulk(ByteBuffer()) }
            if start < 0 { start = length + start }
            if end < 0 { end = length + end }
            start = max(start, 0)
            end = min(max(end, 0), length - 1)
            guard start <= end, length > 0 else { return .bulk(ByteBuffer()) }
            return .bulk(value.slice(Int(start)..<Int(end + 1)))
        }
    }

    /// SETBIT key offset 0|1: the bit's old value; the string grows with
    /// zero bytes to hold it.
    func setbit(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let offset = Self.bitOffset(args[2]) else { return Self.badBitOffset }
        guard let bit = RedisInteger.parse(args[3]), bit == 0 || bit == 1 else {
            return .error("ERR bit is not an integer or out of range")
        }
        let byteIndex = Int(offset >> 3)
        let mask = UInt8(1 << (7 - offset & 7))
        return withStore { store in
            let old = store.lookup(args[1], now: now)
            let current = old?.value.bytes ?? ByteBuffer()
            let was: UInt8 = byteIndex < current.count ? current[byteIndex] & mask : 0
            let grows = old == nil || byteIndex >= current.count
            guard grows || (was != 0) != (bit == 1) else { return .integer(was != 0 ? 1 : 0) }
            let length = max(current.count, byteIndex + 1)
            let updated = ByteBuffer(unsafeUninitializedCapacity: length) { output in
                output.initializeMemory(as: UInt8.self, repeating: 0)
                current.withUnsafeBytes { output.copyMemory(from: $0) }
                output[byteIndex] = bit == 1 ? output[byteIndex] | mask : output[byteIndex] & ~mask
                return length
            }
            if old == nil {
                store.set(args[1], updated, expiresAt: 0, compact: true)
            } else {
                store.replaceValue(args[1], updated, compact: true)
            }
            store.note(.string, "setbit", args[1])
            return .integer(was != 0 ? 1 : 0)
        }
    }

    /// GETBIT key offset: the bit, 0 past the end or for no key.
    func getbit(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let offset = Self.bitOffset(args[2]) else { return Self.badBitOffset }
        let byteIndex = Int(offset >> 3)
        return withStore { store in
            guard let value = store.lookup(args[1], now: now)?.value, byteIndex < value.count else { return .integer(0) }
            return .integer(value.bytes[byteIndex] & UInt8(1 << (7 - offset & 7)) != 0 ? 1 : 0)
        }
    }

    /// A bit offset as Redis reads one: an integer from 0 to below 2^32
    /// (512 MiB of bits).
    private static func bitOffset(_ argument: ByteBuffer) -> Int64? {
        guard let offset = RedisInteger.parse(argument), offset >= 0, offset >> 3 < maxStringLength else { return nil }
        return offset
    }

    private static let badBitOffset = Reply.error("ERR bit offset is not an integer or out of range")
    static let tooLong = Reply.error("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
}
