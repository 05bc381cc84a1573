import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// INCRBYFLOAT, in Redis's arithmetic: C's `long double` (x87 80-bit, as
/// Redis has it on this machine), read with `strtold` as strictly as Redis
/// reads it, written with `%.17Lf` and its trailing zeros cut.
extension Keyspace {
    /// INCRBYFLOAT key increment: the new value as a bulk string.
    func incrementByFloat(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            let old = store.lookup(args[1], now: now)
            guard let value = Self.longDouble(old?.value.bytes ?? ByteBuffer(string: "0")),
                let increment = Self.longDouble(args[2])
            else { return .error("ERR value is not a valid float") }
            let result = value + increment
            guard result.isFinite else { return .error("ERR increment would produce NaN or Infinity") }
            let text = Self.humanReadable(result)
            if old == nil {
                store.set(args[1], text, expiresAt: 0, compact: true)
            } else {
                store.replaceValue(args[1], text, compact: true)
            }
            store.note(.string, "incrbyfloat", args[1])
            return .bulk(text)
        }
    }

    /// Redis's `string2ld`: the whole of `bytes` (under 5 KiB, no leading
    /// space, no NUL) as a number `strtold` reads, not NaN, not out of
    /// range.
    private static func longDouble(_ bytes: ByteBuffer) -> Float80? {
        guard !bytes.isEmpty, bytes.count < 5 * 1024 else { return nil }
        guard !" \t\n\u{0B}\u{0C}\r".utf8.contains(bytes[0]) else { return nil }
        var text: [CChar] = bytes.map { CChar(bitPattern: $0) }
        text.append(0)
        var value: Float80 = 0
        var consumed = 0
        var failure: Int32 = 0
        text.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress!
            var end: UnsafeMutablePointer<CChar>? = start
            errno = 0
            value = strtold(start, &end)
            failure = errno
            consumed = (end ?? start) - start
        }
        guard consumed == bytes.count, !value.isNaN, failure != EINVAL else { return nil }
        if failure == ERANGE && (value.isInfinite || value == 0) { return nil }
        return value
    }

    /// Redis's human-friendly form of a `long double`: `%.17Lf`, then
    /// trailing zeros (and a trailing `.`) dropped, and `-0` as `0`.
    private static func humanReadable(_ value: Float80) -> ByteBuffer {
        var digits = withVaList([value]) { arguments -> [UInt8] in
            let needed = Int(vsnprintf(nil, 0, "%.17Lf", arguments))
            return [UInt8](unsafeUninitializedCapacity: needed + 1) { buffer, count in
                withVaList([value]) { again in
                    _ = buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, needed + 1, "%.17Lf", again) }
                }
                count = needed
            }
        }
        if digits.contains(UInt8(ascii: ".")) {
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
            if digits.last == UInt8(ascii: ".") { digits.removeLast() }
        }
        if digits == Array("-0".utf8) { digits = [UInt8(ascii: "0")] }
        return ByteBuffer(digits)
    }
}
