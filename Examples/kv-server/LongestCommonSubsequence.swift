import RxUV

/// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]: the longest
/// common subsequence of two strings, its length, or the ranges that make
/// it, as Redis 7.0 answers them.
///
/// Bounds: the dynamic-programming table has (length1 + 1) × (length2 +
/// 1) cells of 4 bytes, refused beyond 512 MiB as Redis refuses it, so a
/// call is O(length1 × length2) ≤ 134 million cells. The values are read
/// under the keyspace's lock; the table is filled after the lock is
/// released, so the other loops' commands do not wait for it.
enum LongestCommonSubsequence {
    static func reply(_ args: [ByteBuffer], keyspace: Keyspace, now: Int64) -> Reply {
        let (first, second) = keyspace.withStore { store in
            (store.lookup(args[1], now: now)?.value.bytes ?? ByteBuffer(), store.lookup(args[2], now: now)?.value.bytes ?? ByteBuffer())
        }
        var (length, indexes, withLengths, minimum) = (false, false, false, Int64(0))
        var index = 3
        while index < args.count {
            switch args[index].optionName() {
            case "IDX": indexes = true
            case "LEN": length = true
            case "WITHMATCHLEN": withLengths = true
            case "MINMATCHLEN" where index + 1 < args.count:
                guard let value = RedisInteger.parse(args[index + 1]) else { return .notAnInteger }
                minimum = max(value, 0)
                index += 1
            default:
                return .syntaxError
            }
            index += 1
        }
        if length && indexes { return .error("ERR If you want both the length and indexes, please just use IDX.") }
        let cells = (first.count + 1) * (second.count + 1)
        guard cells * 4 <= Keyspace.maxStringLength else {
            return .error("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len")
        }
        return first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                solve(a, b, length: length, indexes: indexes, withLengths: withLengths, minimum: minimum)
            }
        }
    }

    private static func solve(
        _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, length: Bool, indexes: Bool, withLengths: Bool, minimum: Int64
    ) -> Reply {
        let width = b.count + 1
        var table = [UInt32](repeating: 0, count: (a.count + 1) * width)
        for i in 1..<(a.count + 1) {
            for j in 1..<width {
                table[i * width + j] =
                    a[i - 1] == b[j - 1] ? table[(i - 1) * width + j - 1] + 1 : max(table[(i - 1) * width + j], table[i * width + j - 1])
            }
        }
        let total = Int(table[a.count * width + b.count])
        if length && !indexes { return .integer(Int64(total)) }
        // Walk back from the end: the common bytes, and the ranges of
        // consecutive ones (in a and in b), from the last to the first.
        var common = [UInt8](repeating: 0, count: total)
        var ranges: [Reply] = []
        var (i, j, left) = (a.count, b.count, total)
        var range: (aStart: Int, aEnd: Int, bStart: Int, bEnd: Int)?
        while i > 0 && j > 0 {
            var emit = false
            if a[i - 1] == b[j - 1] {
                common[left - 1] = a[i - 1]
                if let current = range {
                    if current.aStart == i && current.bStart == j {
                        range = (i - 1, current.aEnd, j - 1, current.bEnd)
                    } else {
                        emit = true
                    }
                } else {
                    range = (i - 1, i - 1, j - 1, j - 1)
                }
                if let current = range, current.aStart == 0 || current.bStart == 0 { emit = true }
                left -= 1
                i -= 1
                j -= 1
            } else {
                if table[(i - 1) * width + j] > table[i * width + j - 1] { i -= 1 } else { j -= 1 }
                if range != nil { emit = true }
            }
            if emit, let current = range {
                let matched = current.aEnd - current.aStart + 1
                if indexes, minimum == 0 || matched >= minimum {
                    var entry: [Reply] = [
                        .array([.integer(Int64(current.aStart)), .integer(Int64(current.aEnd))]),
                        .array([.integer(Int64(current.bStart)), .integer(Int64(current.bEnd))]),
                    ]
                    if withLengths { entry.append(.integer(Int64(matched))) }
                    ranges.append(.array(entry))
                }
                range = nil
            }
        }
        guard indexes else { return .bulk(ByteBuffer(common)) }
        return .array([.bulk(ByteBuffer(string: "matches")), .array(ranges), .bulk(ByteBuffer(string: "len")), .integer(Int64(total))])
    }
}
