import HTTPTypes
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Cuts a server connection's bytes into requests (RFC 9112): each one's
/// head, then its body as it arrives, however the bytes were split into
/// reads. A `FrameDecoder`, so `decodeFrames` runs it on `rx.data`.
///
/// Strict where the RFC says MUST, and where leniency is how requests are
/// smuggled past a proxy: a bare CR, a field name with whitespace before
/// its colon, obsolete line folding, a missing or repeated `Host` in
/// HTTP/1.1, `Content-Length` with `Transfer-Encoding`, a repeated or
/// non-numeric `Content-Length`, a transfer coding other than `chunked`, a
/// chunk size that does not fit in 63 bits: each throws an
/// `HTTPParseError` with the status the RFC names (400, 413, 414, 431, 501,
/// 505), after which the connection cannot be trusted. Lenient where the
/// RFC allows it and nothing can be smuggled: empty lines before a request
/// line are skipped (§2.2), a bare LF ends a line of the head or the
/// trailers as CRLF does (§2.2); a chunk line must end with CRLF.
///
/// The head is found by scanning each byte once, however slowly it arrives.
public struct HTTPRequestDecoder: FrameDecoder {
    public typealias Frame = HTTPRequestPart

    private enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: UInt64)
        case chunkDataEnd
        case trailers
    }

    /// The limits it enforces.
    public let limits: HTTPLimits
    private var state = State.head
    /// Bytes of the head already scanned for its end.
    private var scanned = 0
    /// Body bytes received so far, for `maxBodyLength`.
    private var bodyReceived = 0
    /// The head's first line ended within `maxRequestLineLength`.
    private var sawRequestLine = false
    /// The last request line and Host, parsed once for their repeats.
    private var recent = HTTPRecentHead()

    /// A decoder with `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    public mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        switch state {
        case .head:
            return try decodeHead(&reader)
        case .fixedBody(let remaining):
            guard reader.readableBytes > 0 else { return nil }
            let count = min(remaining, reader.readableBytes)
            guard let bytes = reader.readBytes(count) else { return nil }
            if count == remaining {
                state = .head
                return .end(last: bytes, trailers: nil)
            }
            state = .fixedBody(remaining: remaining - count)
            return .body(bytes)
        case .chunkSize:
            guard let line = try readLine(&reader, limit: 1024, tooLong: .badRequest("chunk size line too long")) else { return nil }
            let size = try Self.chunkSize(line)
            if size == 0 {
                state = .trailers
                scanned = 0
                return try decode(&reader)
            }
            // Compared before it is added, so no sum can overflow.
            guard size <= UInt64(limits.maxBodyLength - bodyReceived) else {
                throw HTTPParseError(status: .contentTooLarge, reason: "chunked body over \(limits.maxBodyLength) bytes")
            }
            bodyReceived += Int(size)
            state = .chunkData(remaining: size)
            return try decode(&reader)
        case .chunkData(let remaining):
            guard reader.readableBytes > 0 else { return nil }
            let count = Int(min(remaining, UInt64(reader.readableBytes)))
            guard let bytes = reader.readBytes(count) else { return nil }
            state = UInt64(count) == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - UInt64(count))
            return .body(bytes)
        case .chunkDataEnd:
            // Exactly CRLF: the line is empty.
            guard try readLine(&reader, limit: 0, tooLong: .badRequest("chunk data longer than its size")) != nil else { return nil }
            state = .chunkSize
            return try decode(&reader)
        case .trailers:
            return try decodeTrailers(&reader)
        }
    }

    // MARK: The head

    private mutating func decodeHead(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        if scanned == 0 {
            while let first = reader.buffer.first(at: reader.readerIndex) {
                if first == HTTPSyntax.lf {
                    reader.moveReaderIndex(forwardBy: 1)
                } else if first == HTTPSyntax.cr, reader.readableBytes >= 2 {
                    guard reader.buffer.first(at: reader.readerIndex + 1) == HTTPSyntax.lf else {
                        throw HTTPParseError.badRequest("bare CR")
                    }
                    reader.moveReaderIndex(forwardBy: 2)
                } else {
                    break
                }
            }
            if reader.readableBytes == 1, reader.buffer.first(at: reader.readerIndex) == HTTPSyntax.cr { return nil }
        }
        // A head that repeats the last one, byte for byte, decodes to what
        // that one did.
        if scanned == 0, let repeated = recent.repeatedHead(at: reader) {
            reader.moveReaderIndex(forwardBy: recent.headLength)
            return .head(started(repeated))
        }
        guard let end = try findSectionEnd(reader, isHead: true) else { return nil }
        guard let head = reader.readBytes(end) else { return nil }
        scanned = 0
        let parsed = try head.withHeadBytes { try parseHead($0) }
        return .head(started(parsed))
    }

    /// `head` has been read: what comes next is its body, if any.
    private mutating func started(_ head: HTTPRequestHead) -> HTTPRequestHead {
        switch head.body {
        case .none: state = .head
        case .length(let length): state = .fixedBody(remaining: length)
        case .chunked:
            bodyReceived = 0
            state = .chunkSize
        }
        return head
    }

    /// The length of the head, or of the trailer section (`isHead` false),
    /// up to and with its empty line, once all of it is there; checks the
    /// limits on what is there so far. Each byte is scanned once: the scan
    /// goes on from where the last call stopped.
    private mutating func findSectionEnd(_ reader: ByteBuffer.Reader, isHead: Bool) throws -> Int? {
        let available = reader.readableBytes
        let buffer = reader.buffer
        let base = reader.readerIndex
        var index = scanned
        while index < available {
            guard let newline = reader.firstIndex(of: HTTPSyntax.lf, from: index) else {
                index = available
                break
            }
            if isHead, !sawRequestLine {
                guard newline <= limits.maxRequestLineLength else {
                    throw HTTPParseError(status: .uriTooLong, reason: "request line over \(limits.maxRequestLineLength) bytes")
                }
                sawRequestLine = true
            }
            // The line after this one is empty: the head ends there.
            // (Its length is checked too: a head that arrives whole in one
            // read is held to the limit as one that arrives in pieces.)
            if newline + 1 < available, buffer[base + newline + 1] == HTTPSyntax.lf {
                try checkHeadLength(newline + 2)
                sawRequestLine = false
                return newline + 2
            }
            if newline + 2 < available, buffer[base + newline + 1] == HTTPSyntax.cr, buffer[base + newline + 2] == HTTPSyntax.lf {
                try checkHeadLength(newline + 3)
                sawRequestLine = false
                return newline + 3
            }
            if newline + 2 >= available {
                // Not known yet whether the next line is empty: look again
                // from this newline when more bytes come.
                scanned = newline
                try checkHeadLength(available)
                return nil
            }
            index = newline + 1
        }
        if isHead, !sawRequestLine, available > limits.maxRequestLineLength {
            throw HTTPParseError(status: .uriTooLong, reason: "request line over \(limits.maxRequestLineLength) bytes")
        }
        scanned = max(available - 1, 0)
        try checkHeadLength(available)
        return nil
    }

    private func checkHeadLength(_ length: Int) throws {
        if length > limits.maxHeadLength {
            throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "head over \(limits.maxHeadLength) bytes")
        }
    }

    /// The number of the head's lines before the empty one that ends it;
    /// a CR anywhere but before an LF is an error. Checked in a first pass
    /// with nothing allocated, so that these errors come before any other.
    private static func countLines(_ bytes: HeadBytes) throws -> Int {
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
    /// `memchr` (a loop a byte at a time cost ten instructions a byte).
    private static func index(of byte: UInt8, in bytes: HeadBytes, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// The head's lines without their line ends, one at a time, up to the
    /// empty line that ends the head (`countLines` has checked them).
    private struct Lines {
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

    private mutating func parseHead(_ head: HeadBytes) throws -> HTTPRequestHead {
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
            request: request, minorVersion: minor, body: meaning.body, keepAlive: meaning.keepAlive, expectsContinue: meaning.expectsContinue)
        // A client that repeats its request line and Host likely repeats
        // its whole head: kept for the next one (and not kept for clients
        // that do not, who would pay for it on every request).
        if lineRepeats && hostRepeats {
            recent.keep(parsed, from: head)
        }
        return parsed
    }

    /// What the head says of the fields that decide a request's framing:
    /// Host, and which of the others it has (their values are read from
    /// the header fields only then, so that a request with none of them,
    /// most of them, makes no array for them).
    private struct FramingFields {
        struct Names: OptionSet {
            let rawValue: UInt8
            static let transferEncoding = Names(rawValue: 1)
            static let contentLength = Names(rawValue: 2)
            static let connection = Names(rawValue: 4)
            static let expect = Names(rawValue: 8)

            /// The framing field `name` is, or none.
            static func named(_ name: HTTPField.Name) -> Names {
                switch name {
                case .transferEncoding: .transferEncoding
                case .contentLength: .contentLength
                case .connection: .connection
                case .expect: .expect
                default: []
                }
            }
        }

        /// The first Host's value, in the head's bytes, and how many there were.
        var host: HeadSlice?
        var hostCount = 0
        /// The framing fields the head has.
        var present: Names = []

        /// The values of the framing field `field` (one name) in `fields`,
        /// in order: none, without looking, when the head has no such field.
        func values(_ field: Names, in fields: HTTPFields) -> [String] {
            guard present.contains(field) else { return [] }
            let name: HTTPField.Name =
                switch field {
                case .transferEncoding: .transferEncoding
                case .contentLength: .contentLength
                case .connection: .connection
                default: .expect
                }
            return fields[values: name]
        }
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

    private static func parseField(_ line: HeadSlice) throws -> HTTPField {
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

    /// The request's meaning: Host checked (unless `hostChecked`), the
    /// body's framing, keep-alive, Expect.
    private func interpret(
        minor: Int, framing: FramingFields, fields: HTTPFields, hostChecked: Bool
    ) throws -> (body: HTTPRequestHead.BodyFraming, keepAlive: Bool, expectsContinue: Bool) {
        // Host becomes the request's authority (swift-http-types keeps it
        // out of the header fields, as HTTP/2's :authority).
        if minor >= 1, framing.hostCount != 1 {
            throw HTTPParseError.badRequest(framing.hostCount == 0 ? "no Host" : "more than one Host")
        }
        if framing.hostCount > 1 { throw HTTPParseError.badRequest("more than one Host") }
        if !hostChecked, let host = framing.host, !host.allSatisfy(HTTPSyntax.isHost) {
            throw HTTPParseError.badRequest("malformed Host")
        }
        let transferEncodings = framing.values(.transferEncoding, in: fields)
        let contentLengths = framing.values(.contentLength, in: fields)
        var body = HTTPRequestHead.BodyFraming.none
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else { throw HTTPParseError.badRequest("Content-Length and Transfer-Encoding") }
            guard minor >= 1 else { throw HTTPParseError.badRequest("Transfer-Encoding in HTTP/1.0") }
            let codings = transferEncodings.flatMap(HTTPSyntax.listMembers)
            guard codings == ["chunked"] else {
                throw HTTPParseError(status: .notImplemented, reason: "transfer coding \(transferEncodings.joined(separator: ", "))")
            }
            body = .chunked
        } else if !contentLengths.isEmpty {
            guard contentLengths.count == 1 else { throw HTTPParseError.badRequest("more than one Content-Length") }
            let digits = contentLengths[0].utf8
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(HTTPSyntax.isDigit), let length = Int(contentLengths[0]) else {
                throw HTTPParseError.badRequest("malformed Content-Length")
            }
            guard length <= limits.maxBodyLength else {
                throw HTTPParseError(status: .contentTooLarge, reason: "Content-Length \(length) over \(limits.maxBodyLength)")
            }
            body = length == 0 ? .none : .length(length)
        }
        var keepAlive = minor >= 1
        if framing.present.contains(.connection) {
            let connection = framing.values(.connection, in: fields).flatMap(HTTPSyntax.listMembers)
            keepAlive = minor >= 1 ? !connection.contains("close") : connection.contains("keep-alive") && !connection.contains("close")
        }
        let expects =
            minor >= 1 && body != .none && framing.present.contains(.expect)
            && framing.values(.expect, in: fields).flatMap(HTTPSyntax.listMembers).contains("100-continue")
        return (body, keepAlive, expects)
    }

    // MARK: Chunks

    /// A chunk line of at most `limit` bytes without its CRLF, or `nil`
    /// until it is whole. Chunk lines end with CRLF, strictly: a bare LF
    /// there is how a body's framing is read two ways. The verdict rests
    /// on the first `limit + 2` bytes only, so it is the same however the
    /// bytes arrive.
    private func readLine(_ reader: inout ByteBuffer.Reader, limit: Int, tooLong: HTTPParseError) throws -> [UInt8]? {
        guard let newline = reader.firstIndex(of: HTTPSyntax.lf), newline < limit + 2 else {
            // No LF where one must be by now: too long, whatever follows.
            if reader.readableBytes >= limit + 2 { throw tooLong }
            return nil
        }
        guard let raw = reader.readBytes(newline + 1) else { return nil }
        var line = Array(raw.dropLast())
        guard line.last == HTTPSyntax.cr else { throw HTTPParseError.badRequest("chunk line without CRLF") }
        line.removeLast()
        if line.count > limit { throw tooLong }
        if line.contains(HTTPSyntax.cr) { throw HTTPParseError.badRequest("bare CR") }
        return line
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1): hex digits that fit in
    /// 63 bits, then extensions, which are checked and ignored.
    static func chunkSize(_ line: [UInt8]) throws -> UInt64 {
        var size: UInt64 = 0
        var index = 0
        while index < line.count, let digit = HTTPSyntax.hexValue(line[index]) {
            guard size <= (UInt64(Int64.max) - digit) / 16 else { throw HTTPParseError.badRequest("chunk size over 2^63") }
            size = size * 16 + digit
            index += 1
        }
        guard index > 0 else { throw HTTPParseError.badRequest("malformed chunk size") }
        let rest = line[index...]
        if let first = rest.first {
            guard first == HTTPSyntax.semicolon || first == HTTPSyntax.space || first == HTTPSyntax.tab else {
                throw HTTPParseError.badRequest("malformed chunk size")
            }
            guard rest.allSatisfy({ HTTPSyntax.isFieldValue($0) }) else { throw HTTPParseError.badRequest("malformed chunk extension") }
        }
        return size
    }

    /// The trailer section after the last chunk, up to its empty line.
    private mutating func decodeTrailers(_ reader: inout ByteBuffer.Reader) throws -> HTTPRequestPart? {
        // The empty line alone: no trailers.
        if let first = reader.buffer.first(at: reader.readerIndex) {
            if first == HTTPSyntax.lf || (first == HTTPSyntax.cr && reader.readableBytes >= 2 && reader.buffer.first(at: reader.readerIndex + 1) == HTTPSyntax.lf) {
                reader.moveReaderIndex(forwardBy: first == HTTPSyntax.lf ? 1 : 2)
                state = .head
                return .end(last: ByteBuffer(), trailers: nil)
            }
        } else {
            return nil
        }
        guard let end = try findSectionEnd(reader, isHead: false) else { return nil }
        guard let section = reader.readBytes(end) else { return nil }
        scanned = 0
        let fields = try section.withHeadBytes { bytes in
            guard try Self.countLines(bytes) <= limits.maxHeaderFields else {
                throw HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "over \(limits.maxHeaderFields) trailer fields")
            }
            var fields = HTTPFields()
            var lines = Lines(bytes)
            while let line = lines.next() { fields.append(try Self.parseField(line)) }
            return fields
        }
        state = .head
        return .end(last: ByteBuffer(), trailers: fields)
    }

}

/// A head (or a trailer section) as the decoder reads it: the bytes of the
/// buffer it was cut from, in place, for as long as it is parsed.
typealias HeadBytes = UnsafeBufferPointer<UInt8>
/// A line of a head, or a part of one.
typealias HeadSlice = Slice<HeadBytes>

extension ByteBuffer {
    /// The byte at `index`, if there is one.
    fileprivate func first(at index: Int) -> UInt8? {
        index < count ? self[index] : nil
    }

    /// Runs `body` over this buffer's bytes in place: a head is parsed
    /// where it was read, not copied into an array first (an allocation
    /// and a copy per request). Nothing `body` returns may keep them.
    fileprivate func withHeadBytes<Result>(_ body: (HeadBytes) throws -> Result) throws -> Result {
        try withUnsafeBytes { raw in
            try body(HeadBytes(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
    }
}
