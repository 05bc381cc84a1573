/// The four bytes a client XORs over a frame's payload (RFC 6455 §5.3).
///
/// Each frame a client sends needs a fresh, unpredictable key;
/// `random()` draws one from the system's random source.
public struct WebSocketMaskingKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's bytes as one integer, the first byte on the wire most
    /// significant.
    public let rawValue: UInt32

    /// The key whose bytes on the wire are `rawValue`'s, most significant
    /// first.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The key of the bytes `b0 b1 b2 b3`, in wire order.
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// A key from the system's random source (`SystemRandomNumberGenerator`:
    /// `getrandom` on Linux, `arc4random` on Darwin). Any thread.
    public static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return WebSocketMaskingKey(rawValue: generator.next())
    }

    /// The key's bytes in wire order.
    public var bytes: [UInt8] {
        [UInt8(truncatingIfNeeded: rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
    }

    /// The key as eight bytes (itself twice) in memory order: XORed over
    /// eight payload bytes loaded from memory, it masks them as four key
    /// bytes at a time would, whatever the machine's byte order.
    var doubled: UInt64 {
        let wire = UInt64(rawValue.bigEndian)
        return wire | wire << 32
    }

    /// `37fa213d`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
