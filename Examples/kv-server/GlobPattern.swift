import RxUV

/// Redis's glob patterns (KEYS, SCAN's MATCH, PSUBSCRIBE, PUBSUB CHANNELS,
/// CONFIG GET): `*` any run of bytes, `?` one byte, `[abc]`, `[^abc]` and
/// `[a-z]` one byte of (or not of) a set, `\x` the byte `x` itself. Bytes,
/// not characters, as Redis matches them.
///
/// The answers are those of Redis 7.0's `stringmatchlen`, edge cases
/// included: a range's ends may come in either order and compare as C's
/// signed `char` (`[a-\xff]` is `\xff`…`a`, that is bytes 0x80–0xFF and
/// 0x00–0x61); a `-` right before the closing `]` makes a range with `]`
/// (`[a-]` goes on to the next `]`); a set that is not closed ends at the
/// end of the pattern; `\` at the very end is a `\`; and an empty subject
/// matches only the empty pattern (KEYS `*` is answered without matching,
/// as Redis answers it).
///
/// The work is bounded: one pass over the subject with a single
/// backtracking point, the last `*` seen (a later `*` can absorb whatever
/// an earlier one would have), so a match costs at most (pattern length +
/// 1) × (subject length + 1) steps, never an exponential search; no
/// recursion, so no pattern can exhaust a loop thread's stack.
struct GlobPattern: Sendable {
    let pattern: [UInt8]
    /// ASCII letters compare without case (Redis's `nocase`, CONFIG GET's
    /// way); KEYS, SCAN and pub/sub compare bytes exactly.
    let ignoringCase: Bool

    init(_ pattern: ByteBuffer, ignoringCase: Bool = false) {
        self.pattern = Array(pattern)
        self.ignoringCase = ignoringCase
    }

    /// Whether the whole of `subject` matches.
    func matches(_ subject: ByteBuffer) -> Bool {
        subject.withUnsafeBytes { bytes in
            pattern.withUnsafeBufferPointer { matches(pattern: $0, subject: bytes) }
        }
    }

    private func matches(pattern: UnsafeBufferPointer<UInt8>, subject: UnsafeRawBufferPointer) -> Bool {
        // Redis compares nothing when the subject is empty.
        guard !subject.isEmpty else { return pattern.isEmpty }
        let star = UInt8(ascii: "*")
        var p = 0
        var s = 0
        // Where to go back to: the pattern after the last `*` run, and the
        // subject byte that `*` would take next.
        var resume: (pattern: Int, subject: Int)?
        while s < subject.count {
            if p < pattern.count, pattern[p] == star {
                while p < pattern.count, pattern[p] == star { p += 1 }
                if p == pattern.count { return true }
                resume = (p, s)
                continue
            }
            if p < pattern.count {
                let (matched, next) = element(pattern, at: p, against: subject[s])
                if matched {
                    p = next
                    s += 1
                    continue
                }
            }
            guard let (after, taken) = resume else { return false }
            resume = (after, taken + 1)
            p = after
            s = taken + 1
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// Whether the one-byte element at `p` (a byte, `?`, `\x` or a set)
    /// matches `byte`, and where the next element starts. Where it ends
    /// does not depend on `byte`, as Redis reads a set to its end whatever
    /// it matched.
    private func element(_ pattern: UnsafeBufferPointer<UInt8>, at start: Int, against byte: UInt8) -> (Bool, Int) {
        var p = start
        switch pattern[p] {
        case UInt8(ascii: "?"):
            return (true, p + 1)
        case UInt8(ascii: "["):
            p += 1
            let negated = p < pattern.count && pattern[p] == UInt8(ascii: "^")
            if negated { p += 1 }
            var matched = false
            while p < pattern.count, pattern[p] != UInt8(ascii: "]") {
                if pattern[p] == UInt8(ascii: "\\"), pattern.count - p >= 2 {
                    // An escaped byte compares exactly, even without case.
                    p += 1
                    if pattern[p] == byte { matched = true }
                } else if pattern.count - p >= 3, pattern[p + 1] == UInt8(ascii: "-") {
                    if inRange(pattern[p], pattern[p + 2], byte) { matched = true }
                    p += 2
                } else if same(pattern[p], byte) {
                    matched = true
                }
                p += 1
            }
            // Past the `]`, or at the end of an unclosed set.
            return (matched != negated, min(p + 1, pattern.count))
        case UInt8(ascii: "\\") where pattern.count - p >= 2:
            return (same(pattern[p + 1], byte), p + 2)
        default:
            return (same(pattern[p], byte), p + 1)
        }
    }

    private func same(_ a: UInt8, _ b: UInt8) -> Bool {
        ignoringCase ? Self.lowered(Int(Int8(bitPattern: a))) == Self.lowered(Int(Int8(bitPattern: b))) : a == b
    }

    /// `byte` within the range of `first` and `last`, compared as C's
    /// signed `char`, ends swapped when reversed, then (without case)
    /// each lowered, as Redis does it in that order.
    private func inRange(_ first: UInt8, _ last: UInt8, _ byte: UInt8) -> Bool {
        var low = Int(Int8(bitPattern: first))
        var high = Int(Int8(bitPattern: last))
        var value = Int(Int8(bitPattern: byte))
        if low > high { swap(&low, &high) }
        if ignoringCase {
            (low, high, value) = (Self.lowered(low), Self.lowered(high), Self.lowered(value))
        }
        return value >= low && value <= high
    }

    /// C's `tolower` in the C locale: `A`–`Z` only.
    private static func lowered(_ value: Int) -> Int {
        (65...90).contains(value) ? value + 32 : value
    }
}
