import HTTPTypes

// Parsing a head once its end is found: the request line, the fields
// (`HTTPFieldLines`), and the request they make.
extension HTTPRequestDecoder {
    mutating func parseHead(_ head: HeadBytes) throws -> HTTPRequestHead {
        let lineCount = try HTTPFieldLines.count(head)
        var lines = HTTPFieldLines.Lines(head)
        guard let requestLine = lines.next() else { throw HTTPParseError.badRequest("no request line") }
        // A line that repeats the last one was parsed and accepted then.
        let lineRepeats = recent.repeatsLine(requestLine)
        let parsedLine = lineRepeats ? nil : try Self.parseRequestLine(requestLine)
        guard lineCount - 1 <= limits.maxHeaderFields else {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "over \(limits.maxHeaderFields) header fields")
        }
        // One pass: the fields that frame the request are marked as they
        // come; Host leaves the fields (it becomes the authority).
        var framing = HTTPFramingFields()
        var fields = HTTPFields()
        // Room for every line but the request line; none when the one
        // other line is likely Host, which never becomes a field (an
        // allocation for nothing on most requests of a benchmark client).
        if lineCount > 2 {
            fields.reserveCapacity(lineCount - 1)
        }
        while let line = lines.next() {
            let split = try HTTPFieldLines.splitField(line)
            if Self.isHost(split.name) {
                framing.hostCount += 1
                if framing.host == nil { framing.host = split.value }
                continue
            }
            framing.note(name: split.name, value: split.value)
            fields.append(try HTTPFieldLines.field(split))
        }
        // A Host that repeats the last one was checked then.
        let hostRepeats = recent.repeatsHost(framing.host)
        let minor = parsedLine?.minor ?? recent.minorVersion
        let meaning = try interpret(minor: minor, framing: framing, hostChecked: hostRepeats)
        let request =
            lineRepeats && hostRepeats
            ? recent.repeated(with: fields)
            : recent.request(
                line: requestLine, parsed: parsedLine ?? recent.parsedLine, host: framing.host, hostRepeats: hostRepeats, fields: fields)
        let parsed = HTTPRequestHead(
            request, minorVersion: minor, body: meaning.body, keepAlive: meaning.keepAlive, expectsContinue: meaning.expectsContinue,
            asksToUpgrade: meaning.asksToUpgrade)
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
        return (method, targetBytes.string, Int(minor - UInt8(ascii: "0")))
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
        return HTTPRequest.Method(token.string)
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
