import RxUV

/// Redis's glob patterns (KEYS, PSUBSCRIBE): `*` any run of bytes, `?` one
/// byte, `[abc]`, `[^abc]` and `[a-z]` one byte of (or not of) a set, `\x`
/// the byte `x` itself. Bytes, not characters, as Redis matches them.
struct GlobPattern: Sendable {
    let pattern: [UInt8]

    init(_ pattern: ByteBuffer) {
        self.pattern = Array(pattern)
    }

    /// Whether the whole of `subject` matches.
    func matches(_ subject: ByteBuffer) -> Bool {
        subject.withUnsafeBytes { bytes in
            pattern.withUnsafeBufferPointer { Self.match($0[...], bytes[...], depth: 0) }
        }
    }

    /// How many `*` may nest before a pattern stops matching (a hostile
    /// pattern of thousands of stars must not exhaust a loop thread's stack).
    private static let maxDepth = 1000

    private static func match(_ pattern: Slice<UnsafeBufferPointer<UInt8>>, _ subject: Slice<UnsafeRawBufferPointer>, depth: Int) -> Bool {
        guard depth <= maxDepth else { return false }
        var p = pattern.startIndex
        var s = subject.startIndex
        while p < pattern.endIndex {
            switch pattern[p] {
            case UInt8(ascii: "*"):
                while p + 1 < pattern.endIndex, pattern[p + 1] == UInt8(ascii: "*") { p += 1 }
                if p + 1 == pattern.endIndex { return true }
                var from = s
                while from <= subject.endIndex {
                    if match(pattern[(p + 1)...], subject[from...], depth: depth + 1) { return true }
                    from += 1
                }
                return false
            case UInt8(ascii: "?"):
                guard s < subject.endIndex else { return false }
                s += 1
            case UInt8(ascii: "["):
                guard s < subject.endIndex else { return false }
                var at = p + 1
                let negated = at < pattern.endIndex && pattern[at] == UInt8(ascii: "^")
                if negated { at += 1 }
                var matched = false
                let byte = subject[s]
                while at < pattern.endIndex, pattern[at] != UInt8(ascii: "]") {
                    if pattern[at] == UInt8(ascii: "\\"), at + 1 < pattern.endIndex {
                        at += 1
                        if pattern[at] == byte { matched = true }
                    } else if at + 2 < pattern.endIndex, pattern[at + 1] == UInt8(ascii: "-") {
                        let (low, high) = (min(pattern[at], pattern[at + 2]), max(pattern[at], pattern[at + 2]))
                        if (low...high).contains(byte) { matched = true }
                        at += 2
                    } else if pattern[at] == byte {
                        matched = true
                    }
                    at += 1
                }
                // An unclosed set ends at the end of the pattern, as Redis reads it.
                p = at < pattern.endIndex ? at : pattern.endIndex - 1
                if negated { matched.toggle() }
                guard matched else { return false }
                s += 1
            case UInt8(ascii: "\\") where p + 1 < pattern.endIndex:
                p += 1
                guard s < subject.endIndex, pattern[p] == subject[s] else { return false }
                s += 1
            default:
                guard s < subject.endIndex, pattern[p] == subject[s] else { return false }
                s += 1
            }
            p += 1
        }
        return s == subject.endIndex
    }
}
