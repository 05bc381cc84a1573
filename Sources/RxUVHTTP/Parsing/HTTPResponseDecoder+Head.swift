import HTTPTypes

// Parsing a response's head once its end is found: the status line, the
// fields (`HTTPFieldLines`), and the body's framing as the request's method
// and the status decide it (RFC 9112 §6.3). A line that repeats the last
// head's in the same place takes what that one made (`recent`).
extension HTTPResponseDecoder {
    mutating func parseHead(_ head: HeadBytes, method: HTTPRequest.Method) throws -> HTTPResponseHead {
        let lineCount = try HTTPFieldLines.count(head)
        var lines = HTTPFieldLines.Lines(head)
        guard let statusLine = lines.next() else { throw HTTPParseError(status: .badGateway, reason: "no status line") }
        let minor: Int
        let status: HTTPResponse.Status
        let statusRepeats: Bool
        if let repeated = recent.begin(statusLine: statusLine) {
            (minor, status) = repeated
            statusRepeats = true
        } else {
            statusRepeats = false
            (minor, status) = try Self.parseStatusLine(statusLine)
            recent.parsed(status: (minor, status))
        }
        guard lineCount - 1 <= limits.maxHeaderFields else {
            throw HTTPParseError(status: .badGateway, reason: "over \(limits.maxHeaderFields) header fields")
        }
        var framing: HTTPFramingFields
        let fields: HTTPFields
        let repeatsAll: Bool
        if let repeated = recent.repeatedFields(lines, count: lineCount - 1) {
            (fields, framing) = repeated
            repeatsAll = true
        } else {
            framing = HTTPFramingFields()
            fields = try parseFields(&lines, count: lineCount - 1, framing: &framing)
            repeatsAll = false
        }
        // The fields that frame a body are checked whether or not the
        // response has one: a server that sends them wrong cannot be
        // trusted with the next response either.
        let declared = try framing.declaredFraming(minor: minor, limits: limits, mergingIdentical: true)
        var keepAlive = framing.keepAlive(minor: minor)
        let body: HTTPResponseHead.BodyFraming
        if status.code == 101 || (method == .connect && status.kind == .successful) {
            body = .switchedProtocol
            keepAlive = false
        } else if status.kind == .informational {
            body = .none
            keepAlive = true
        } else if method == .head || status.code == 204 || status.code == 304 {
            body = .none
        } else {
            switch declared {
            case .chunked: body = .chunked
            case .length(let length): body = length > 0 ? .length(length) : .none
            case .untilClose, nil:
                body = .untilClose
                keepAlive = false
            }
        }
        let response: HTTPResponse
        if repeatsAll, statusRepeats, let repeated = recent.repeatedResponse {
            // Every line repeats the last head's: so does its response.
            response = repeated
        } else {
            response = HTTPResponse(status: status, headerFields: fields)
        }
        if !repeatsAll { recent.accepted(response) }
        return HTTPResponseHead(response: response, minorVersion: minor, body: body, keepAlive: keepAlive, statusCode: status.code)
    }

    /// The field lines `lines` has left (`count` of them), each noted in
    /// `framing`; a line that repeats the last head's in its place takes
    /// what that one made.
    private mutating func parseFields(_ lines: inout HTTPFieldLines.Lines, count: Int, framing: inout HTTPFramingFields) throws -> HTTPFields {
        var fields = HTTPFields()
        if count > 0 {
            fields.reserveCapacity(count)
        }
        var index = 0
        while let line = lines.next() {
            if let repeated = recent.repeated(line, at: index) {
                framing.note(name: repeated.name, value: repeated.value)
                fields.append(repeated.field)
                recent.parsed(line, name: repeated.name, value: repeated.value, field: repeated.field)
            } else {
                let split = try HTTPFieldLines.splitField(line)
                framing.note(name: split.name, value: split.value)
                let field = try HTTPFieldLines.field(split)
                fields.append(field)
                recent.parsed(line, name: split.name, value: split.value, field: field)
            }
            index += 1
        }
        return fields
    }

    /// `HTTP-version SP status-code SP [ reason-phrase ]` (RFC 9112 §4),
    /// also without the SP after the code; HTTP/1.0 and HTTP/1.1 only, a
    /// code from 100 to 599 (RFC 9110 §15), a reason of field-value bytes.
    static func parseStatusLine(_ line: HeadSlice) throws -> (minor: Int, status: HTTPResponse.Status) {
        let start = line.startIndex
        guard line.count >= 12, line[start] == UInt8(ascii: "H"), line[start + 1] == UInt8(ascii: "T"),
            line[start + 2] == UInt8(ascii: "T"), line[start + 3] == UInt8(ascii: "P"), line[start + 4] == UInt8(ascii: "/"),
            HTTPSyntax.isDigit(line[start + 5]), line[start + 6] == UInt8(ascii: "."), HTTPSyntax.isDigit(line[start + 7]),
            line[start + 8] == HTTPSyntax.space
        else { throw HTTPParseError(status: .badGateway, reason: "malformed status line") }
        let (major, minor) = (line[start + 5], line[start + 7])
        guard major == UInt8(ascii: "1"), minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else {
            throw HTTPParseError(
                status: .badGateway, reason: "HTTP version HTTP/\(Character(UnicodeScalar(major))).\(Character(UnicodeScalar(minor))) not supported")
        }
        let digits = line[(start + 9)..<(start + 12)]
        guard digits.allSatisfy(HTTPSyntax.isDigit) else { throw HTTPParseError(status: .badGateway, reason: "malformed status code") }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (100...599).contains(code) else { throw HTTPParseError(status: .badGateway, reason: "status code \(code) outside 100–599") }
        var reason = ""
        if line.count > 12 {
            guard line[start + 12] == HTTPSyntax.space else { throw HTTPParseError(status: .badGateway, reason: "malformed status code") }
            let phrase = line[(start + 13)...]
            guard phrase.allSatisfy(HTTPSyntax.isFieldValue) else { throw HTTPParseError(status: .badGateway, reason: "malformed reason phrase") }
            reason = phrase.string
        }
        return (Int(minor - UInt8(ascii: "0")), HTTPResponse.Status(code: code, reasonPhrase: reason))
    }
}
