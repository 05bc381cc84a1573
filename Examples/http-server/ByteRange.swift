/// What a `Range` field asks of a representation of `size` bytes (RFC
/// 9110 §14): one range of bytes is served as a 206 part; a field that
/// is not one well-formed byte range (several ranges, another unit) is
/// ignored, and the whole representation served, as the RFC allows; a
/// range that starts past the end is unsatisfiable (416).
enum ByteRange: Equatable {
    case whole
    case part(Range<Int64>)
    case unsatisfiable

    static func parse(_ field: String?, size: Int64) -> ByteRange {
        guard let field, field.hasPrefix("bytes=") else { return .whole }
        let spec = field.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = digits(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(size - suffix, 0)..<size)
        }
        guard let start = digits(first) else { return .whole }
        let end: Int64
        if last.isEmpty {
            end = size - 1
        } else {
            guard let given = digits(last), given >= start else { return .whole }
            end = min(given, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(start..<(end + 1))
    }

    /// A decimal number of at most 18 digits, or `nil`.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
