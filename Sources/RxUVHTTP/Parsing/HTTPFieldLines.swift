import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// The lines of a head or of a trailer section, and the field lines among
/// them (RFC 9112 §2.2, §5): what the request and the response decoders
/// read the same way.
enum HTTPFieldLines {
    /// The number of the section's lines before the empty one that ends
    /// it; a CR anywhere but before an LF is an error. Checked in a first
    /// pass with nothing allocated, so that these errors come before any
    /// other.
    static func count(_ bytes: HeadBytes) throws -> Int {
        // Every CR first, each of which must come right before an LF, then
        // every LF.
        var at = 0
        while let index = index(of: HTTPSyntax.cr, in: bytes, from: at) {
            guard index + 1 < bytes.count, bytes[index + 1] == HTTPSyntax.lf else {
                throw HTTPParseError.badRequest("bare CR")
            }
            at = index + 2
        }
        var count = 0
        var lineStart = 0
        while let index = index(of: HTTPSyntax.lf, in: bytes, from: lineStart) {
            let end = index > lineStart && bytes[index - 1] == HTTPSyntax.cr ? index - 1 : index
            if end > lineStart { count += 1 }
            lineStart = index + 1
        }
        return count
    }

    /// Where `byte` is first in `bytes` from `start` on, found with
    /// `memchr`.
    static func index(of byte: UInt8, in bytes: HeadBytes, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// The section's lines without their line ends, one at a time, up to
    /// the empty line that ends it (`count` has checked them).
    struct Lines {
        let head: HeadBytes
        var start = 0

        init(_ head: HeadBytes) {
            self.head = head
        }

        mutating func next() -> HeadSlice? {
            guard let newline = HTTPFieldLines.index(of: HTTPSyntax.lf, in: head, from: start) else { return nil }
            var end = newline
            if end > start, head[end - 1] == HTTPSyntax.cr { end -= 1 }
            let line = head[start..<end]
            start = newline + 1
            return line.isEmpty ? nil : line
        }
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5); no whitespace
    /// before the colon, no obsolete line folding: the name and the value,
    /// both checked.
    static func splitField(_ line: HeadSlice) throws -> (name: HeadSlice, value: HeadSlice) {
        if let first = line.first, first == HTTPSyntax.space || first == HTTPSyntax.tab {
            throw HTTPParseError.badRequest("obsolete line folding")
        }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { throw HTTPParseError.badRequest("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isToken) else { throw HTTPParseError.badRequest("malformed field name") }
        let value = HTTPSyntax.trimmed(line[(colon + 1)...])
        guard value.allSatisfy(HTTPSyntax.isFieldValue) else {
            throw HTTPParseError.badRequest("malformed value of \(name.string)")
        }
        return (name, value)
    }

    /// A field line as a field.
    static func field(_ line: HeadSlice) throws -> HTTPField {
        try field(splitField(line))
    }

    /// A split line as a field.
    static func field(_ split: (name: HeadSlice, value: HeadSlice)) throws -> HTTPField {
        guard let name = HTTPField.Name(split.name.string) else {
            throw HTTPParseError.badRequest("malformed field name")
        }
        // An ASCII value (nearly all) becomes its String here, which the
        // field keeps as it is: from bytes, HTTPTypes validates them as
        // UTF-8 through the standard library's generic path. Other bytes
        // (obs-text) go as bytes, which the field keeps as they came.
        guard split.value.allSatisfy({ $0 < 0x80 }) else { return HTTPField(name: name, value: split.value) }
        return HTTPField(name: name, value: split.value.string)
    }

    /// The field lines of a trailer section, parsed and checked, with at
    /// most `limits.maxHeaderFields` of them.
    static func trailerFields(_ bytes: HeadBytes, limits: HTTPLimits) throws -> HTTPFields {
        guard try count(bytes) <= limits.maxHeaderFields else {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "over \(limits.maxHeaderFields) trailer fields")
        }
        var fields = HTTPFields()
        var lines = Lines(bytes)
        while let line = lines.next() { fields.append(try field(line)) }
        return fields
    }
}
