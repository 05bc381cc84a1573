import RxUV

/// Redis's integers: how an argument or a stored value reads as a 64-bit
/// integer, and how an integer is written back.
enum RedisInteger {
    /// `bytes` as a signed 64-bit integer, as strictly as Redis reads one:
    /// an optional `-`, then digits without a leading zero (`0` alone is
    /// fine), at most 20 characters, no sign `+`, no spaces, no overflow.
    /// `nil` otherwise ("value is not an integer or out of range").
    static func parse(_ bytes: ByteBuffer) -> Int64? {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// `parse(_:)` over raw bytes.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let count = bytes.count
        guard count > 0, count <= 20 else { return nil }
        if count == 1, bytes[0] == UInt8(ascii: "0") { return 0 }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative {
            index = 1
            guard count > 1 else { return nil }
        }
        guard (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        var magnitude: UInt64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = next
            index += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// Appends the decimal digits of `value` to `output`, without a
    /// `String` in between.
    static func append(_ value: Int64, to output: inout [UInt8]) {
        withDigits(of: value) { output.append(contentsOf: $0) }
    }

    /// How many characters `value`'s decimal digits take, its sign
    /// included.
    static func digitCount(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    /// The decimal digits of `value` as a buffer of its own: one
    /// allocation.
    static func bytes(_ value: Int64) -> ByteBuffer {
        withDigits(of: value) { ByteBuffer($0) }
    }

    /// Calls `body` with the decimal digits of `value`, written backwards
    /// into a stack buffer (19 digits and a sign at most).
    static func withDigits<Result>(of value: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
