import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

// Parsing a head once its end is found: its lines, the request line, the
// fields, and the request they make.
extension HTTPRequestDecoder {
    /// The number of the head's lines before the empty one that ends it;
    /// a CR anywhere but before an LF is an error. Checked in a first pass
    /// with nothing allocated, so that these errors come before any other.
    static func countLines(_ bytes: HeadBytes) throws -> Int {
        // Every CR first, each of which must come right before an LF, then
        // every LF.
        var at = 0
        while let index = Self.index(of: HTTPSyntax.cr, in: bytes, from: at) {
            guard index + 1 < bytes.count, bytes[index + 1] == HTTPSyntax.lf else {
                throw HTTPParseError.badRequest("bare CR")
            }
            at = index + 2
        }
        var count = 0
        var lineStart = 0
        while let index = Self.index(of: HTTPSyntax.lf, in: bytes, from: lineStart) {
            let end = index > lineStart && bytes[index - 1] == HTTPSyntax.cr ? index - 1 : index
            if end > lineStart { count += 1 }
            lineStart = index + 1
        }
        return count
    }

    /// Where `byte` is first in `bytes` from `start` on, found with
    /// `memchr`.
    private static func index(of byte: UInt8, in bytes: HeadBytes, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// The head's lines without their line ends, one at a time, up to the
    /// empty line that ends the head (`countLines` has checked them).
    struct Lines {
        let head: HeadBytes
        var start = 0

        init(_ head: HeadBytes) {
            self.head = head
        }

        mutating func next() -> HeadSlice? {
            guard let newline = HTTPRequestDecoder.index(of: HTTPSyntax.lf, in: head, from: start) else { return nil }
            var end = newline
            if end > start, head[end - 1] == HTTPSyntax.cr { end -= 1 }
            let line = head[start..<end]
            start = newline + 1
            return line.isEmpty ? nil : line
        }
    }

    mutating func parseHead(_ head: HeadBytes) throws -> HTTPRequestHead {
        let lineCount = try Self.countLines(head)
        var lines = Lines(head)
        guard let requestLine = lines.next() else { throw HTTPParseError.badRequest("no request line") }
        // A line that repeats the last one was parsed and accepted then.
        let lineRepeats = recent.repeatsLine(requestLine)
        let parsedLine = lineRepeats ? nil : try Self.parseRequestLine(requestLine)
        guard lineCount - 1 <= limits.maxHeaderFields else {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "over \(limits.maxHeaderFields) header fields")
        }
        // One pass: the fields that frame the request are marked as they
        // come; Host leaves the fields (it becomes the authority).
        var framing = FramingFields()
        var fields = HTTPFields()
        // Room for every line but the request line; none when the one
        // other line is likely Host, which never becomes a field (an
        // allocation for nothing on most requests of a benchmark client).
        if lineCount > 2 {
            fields.reserveCapacity(lineCount - 1)
        }
        while let line = lines.next() {
            let split = try Self.splitField(line)
            if Self.isHost(split.name) {
                framing.hostCount += 1
                if framing.host == nil { framing.host = split.value }
                continue
            }
            let field = try Self.field(split)
            framing.present.insert(.named(field.name))
            fields.append(field)
        }
        // A Host that repeats the last one was checked then.
        let hostRepeats = recent.repeatsHost(framing.host)
        let minor = parsedLine?.minor ?? recent.minorVersion
        let meaning = try interpret(minor: minor, framing: framing, fields: fields, hostChecked: hostRepeats)
        let request =
            lineRepeats && hostRepeats
            ? recent.repeated(with: fields)
            : recent.request(
                line: requestLine, parsed: parsedLine ?? recent.parsedLine, host: framing.host, hostRepeats: hostRepeats, fields: fields)
        let parsed = HTTPRequestHead(
            request, minorVersion: minor, body: meaning.body, keepAlive: meaning.keepAlive, expectsContinue: meaning.expectsContinue)
        // A client that repeats its request line and Host likely repeats
        // its whole head: kept for the next one (and not kept for clients
        // that do not, who would pay for it on every request).
        if lineRepeats && hostRepeats {
            recent.keep(parsed, from: head)
        }
        return parsed
    }

    /// `method SP request-target SP HTTP-version` (RFC 9112 §3), exactly.
    private static func parseRequestLine(_ line: HeadSlice) throws -> (method: HTTPRequest.Method, target: String, minor: Int) {
        guard let firstSpace = line.firstIndex(of: HTTPSyntax.space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: HTTPSyntax.space),
            !line[(secondSpace + 1)...].contains(HTTPSyntax.space)
        else { throw HTTPParseError.badRequest("malformed request line") }
        let methodBytes = line[line.startIndex..<firstSpace]
        let targetBytes = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(HTTPSyntax.isToken), let method = Self.method(methodBytes)
        else { throw HTTPParseError.badRequest("malformed method") }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy(HTTPSyntax.isTarget) else {
            throw HTTPParseError.badRequest("malformed request-target")
        }
        let start = version.startIndex
        guard version.count == 8, version[start] == UInt8(ascii: "H"), version[start + 1] == UInt8(ascii: "T"),
            version[start + 2] == UInt8(ascii: "T"), version[start + 3] == UInt8(ascii: "P"),
            version[start + 4] == UInt8(ascii: "/"), HTTPSyntax.isDigit(version[start + 5]),
            version[start + 6] == UInt8(ascii: "."), HTTPSyntax.isDigit(version[start + 7])
        else { throw HTTPParseError.badRequest("malformed HTTP version") }
        let (major, minor) = (version[start + 5], version[start + 7])
        guard major == UInt8(ascii: "1") else {
            throw HTTPParseError(status: .httpVersionNotSupported, reason: "HTTP/\(Character(UnicodeScalar(major))).\(Character(UnicodeScalar(minor)))")
        }
        return (method, String(decoding: targetBytes, as: UTF8.self), Int(minor - UInt8(ascii: "0")))
    }

    /// The method a token names: the common ones without making a string
    /// (case-sensitive, RFC 9110 §9.1), any other through swift-http-types.
    private static func method(_ token: HeadSlice) -> HTTPRequest.Method? {
        func spells(_ name: StaticString) -> Bool {
            guard token.count == name.utf8CodeUnitCount else { return false }
            let letters = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            return token.elementsEqual(letters)
        }
        switch token.count {
        case 3:
            if spells("GET") { return .get }
            if spells("PUT") { return .put }
        case 4:
            if spells("HEAD") { return .head }
            if spells("POST") { return .post }
        case 5:
            if spells("PATCH") { return .patch }
        case 6:
            if spells("DELETE") { return .delete }
        case 7:
            if spells("OPTIONS") { return .options }
        default:
            break
        }
        return HTTPRequest.Method(String(decoding: token, as: UTF8.self))
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5); no whitespace
    /// before the colon, no obsolete line folding: the name and the value,
    /// both checked.
    private static func splitField(_ line: HeadSlice) throws -> (name: HeadSlice, value: HeadSlice) {
        if let first = line.first, first == HTTPSyntax.space || first == HTTPSyntax.tab {
            throw HTTPParseError.badRequest("obsolete line folding")
        }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { throw HTTPParseError.badRequest("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isToken) else { throw HTTPParseError.badRequest("malformed field name") }
        let value = HTTPSyntax.trimmed(line[(colon + 1)...])
        guard value.allSatisfy(HTTPSyntax.isFieldValue) else {
            throw HTTPParseError.badRequest("malformed value of \(String(decoding: name, as: UTF8.self))")
        }
        return (name, value)
    }

    static func parseField(_ line: HeadSlice) throws -> HTTPField {
        try field(splitField(line))
    }

    /// A split line as a field.
    private static func field(_ split: (name: HeadSlice, value: HeadSlice)) throws -> HTTPField {
        guard let name = HTTPField.Name(String(decoding: split.name, as: UTF8.self)) else {
            throw HTTPParseError.badRequest("malformed field name")
        }
        return HTTPField(name: name, value: split.value)
    }

    /// Whether a field's name is `Host` (any case). Host becomes the
    /// request's authority, not a field, so it is never made one.
    private static func isHost(_ name: HeadSlice) -> Bool {
        let start = name.startIndex
        return name.count == 4
            && name[start] | 0x20 == UInt8(ascii: "h") && name[start + 1] | 0x20 == UInt8(ascii: "o")
            && name[start + 2] | 0x20 == UInt8(ascii: "s") && name[start + 3] | 0x20 == UInt8(ascii: "t")
    }
}
