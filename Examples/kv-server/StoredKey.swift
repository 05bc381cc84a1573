import RxUV

/// A key as the keyspace holds it: up to 23 bytes inside the value itself,
/// so storing one allocates nothing and a lookup compares keys without
/// following a pointer to their bytes (a cache miss per probe in a large
/// table); a longer key is kept in a buffer of its own (and a lookup with
/// one allocates its box).
struct StoredKey: Hashable {
    /// The bytes of a short key, with its length in the last byte; for a
    /// long key, zeros and a length byte of `longMark`.
    private let first: UInt64
    private let second: UInt64
    private let third: UInt64
    /// A long key's bytes, boxed: a reference keeps the key at 32 bytes.
    private let long: LongKey?

    private final class LongKey: Sendable {
        let bytes: ByteBuffer

        init(_ bytes: ByteBuffer) {
            self.bytes = bytes
        }
    }

    private static let inlineCapacity = 23
    private static let longMark: UInt64 = 0xFF << 56
    private static let vacantMark: UInt64 = 0xFE << 56

    private init(first: UInt64, second: UInt64, third: UInt64) {
        (self.first, self.second, self.third) = (first, second, third)
        long = nil
    }

    /// No key: what a removed key's slot in `KeyTable` holds. Its length
    /// byte (`0xFE`) is no short key's (at most 23) nor a long one's
    /// (`0xFF`), so it equals no key.
    static let vacant = StoredKey(first: 0, second: 0, third: vacantMark)

    /// `true` for `vacant`.
    var isVacant: Bool {
        third == Self.vacantMark
    }

    /// `bytes` as a key: a long key is copied into storage of its own when
    /// `copyingLong` (a key to keep), else kept as the slice it is (a key to
    /// look up with).
    init(_ bytes: ByteBuffer, copyingLong: Bool) {
        guard bytes.count <= Self.inlineCapacity else {
            (first, second, third) = (0, 0, Self.longMark)
            long = LongKey(copyingLong ? ByteBuffer(bytes) : bytes)
            return
        }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { destination in
            bytes.withUnsafeBytes { destination.copyMemory(from: $0) }
        }
        first = words.0
        second = words.1
        third = words.2 | UInt64(bytes.count) << 56
        long = nil
    }

    /// The key's bytes (a short key's in a new buffer).
    var bytes: ByteBuffer {
        if let long { return long.bytes }
        var words = (first, second, third & ~(0xFF << 56))
        let count = Int(third >> 56)
        return withUnsafeBytes(of: &words) { ByteBuffer($0.prefix(count)) }
    }

    static func == (lhs: StoredKey, rhs: StoredKey) -> Bool {
        lhs.first == rhs.first && lhs.second == rhs.second && lhs.third == rhs.third && lhs.long?.bytes == rhs.long?.bytes
    }

    func hash(into hasher: inout Hasher) {
        if let long {
            hasher.combine(long.bytes)
        } else {
            hasher.combine(first)
            hasher.combine(second)
            hasher.combine(third)
        }
    }
}
