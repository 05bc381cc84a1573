import RxUV

/// A value as the keyspace holds it: bytes, or a 64-bit integer held in the
/// entry itself, as Redis holds a string that reads as an integer
/// (`OBJ_ENCODING_INT`).
///
/// What the integer form saves: INCR reads and writes the number where the
/// key's slot is (no cache miss on a value's storage, no parse, no
/// allocation for the result), GET writes its digits straight into the
/// reply, and a counter takes no storage of its own. A client sees no
/// difference: `bytes` gives the canonical decimal digits, which are exactly
/// the bytes that were stored (only canonical digits are held as an
/// integer: `RedisInteger.parse` accepts no sign `+`, no leading zero, no
/// `-0`).
///
/// Both forms keep a pointer in their first word (the bytes' storage; for
/// an integer, an unowned reference to one shared object), so Swift keeps
/// the case in that pointer's spare bits: a value is 24 bytes, the size of
/// the `ByteBuffer` alone, and a keyspace entry stays 32.
enum StoredValue {
    case bytes(ByteBuffer)
    case integer(IntegerForm, Int64)

    /// What an integer value's first word points at. Never counted,
    /// never freed: one object for the process.
    struct IntegerForm {
        unowned(unsafe) let mark: Mark

        final class Mark: Sendable {}
        private static let shared = Mark()

        init() {
            mark = Self.shared
        }
    }

    /// `bytes` as a value: held as an integer when they are an integer's
    /// canonical digits (at most 20 bytes, as Redis tries), otherwise as the
    /// bytes, copied unless `compact` says they are a buffer of their own.
    init(_ bytes: ByteBuffer, compact: Bool) {
        if let value = RedisInteger.parse(bytes) {
            self = .integer(IntegerForm(), value)
        } else {
            self = .bytes(compact ? bytes : ByteBuffer(bytes))
        }
    }

    /// An integer value.
    init(_ value: Int64) {
        self = .integer(IntegerForm(), value)
    }

    /// The value's bytes (an integer's digits in a new buffer).
    var bytes: ByteBuffer {
        switch self {
        case .bytes(let bytes): bytes
        case .integer(_, let value): RedisInteger.bytes(value)
        }
    }

    /// The value as an integer, if it reads as one (INCR's operand).
    var integer: Int64? {
        switch self {
        case .bytes(let bytes): RedisInteger.parse(bytes)
        case .integer(_, let value): value
        }
    }

    /// How many bytes the value has (STRLEN, APPEND's limit).
    var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .integer(_, let value): RedisInteger.digitCount(value)
        }
    }

    /// The value as a bulk reply: an integer's digits are written into the
    /// reply, not into a buffer first.
    var reply: Reply {
        switch self {
        case .bytes(let bytes): .bulk(bytes)
        case .integer(_, let value): .bulkDigits(value)
        }
    }
}
