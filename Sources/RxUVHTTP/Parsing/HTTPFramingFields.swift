import HTTPTypes

/// The fields of a head that decide its message's framing (RFC 9112 §6):
/// `Transfer-Encoding`, `Content-Length`, `Connection`, `Expect` and
/// `Upgrade`, their
/// values kept as the head's bytes while the head is parsed (noted line by
/// line, so that what they mean is read from the bytes with no `String`
/// made and no second walk over the header fields), and a request's Host.
/// The request and the response decoders read them the same way. Valid
/// only while the head's bytes are.
struct HTTPFramingFields {
    /// The values of one framing field, in the order of their lines.
    struct Values {
        private(set) var first: HeadSlice?
        /// The values after the first: an array only for a field repeated.
        private(set) var rest: [HeadSlice] = []

        var isEmpty: Bool { first == nil }
        var count: Int { first == nil ? 0 : 1 + rest.count }

        mutating func append(_ value: HeadSlice) {
            if first == nil { first = value } else { rest.append(value) }
        }

        func forEach(_ body: (HeadSlice) throws -> Void) rethrows {
            guard let first else { return }
            try body(first)
            for value in rest { try body(value) }
        }

        /// Whether any value's list has `member` (lower case), its case folded.
        func containsMember(_ member: StaticString) -> Bool {
            var found = false
            forEach { value in
                HTTPFramingFields.forEachMember(of: value) { if HTTPFramingFields.equalsFolded($0, member) { found = true } }
            }
            return found
        }

        /// The values joined by ", ", for a message.
        var text: String {
            var parts: [String] = []
            forEach { parts.append($0.string) }
            return parts.joined(separator: ", ")
        }
    }

    /// A request's first Host value, in the head's bytes, and how many
    /// there were.
    var host: HeadSlice?
    var hostCount = 0
    var transferEncoding = Values()
    var contentLength = Values()
    var connection = Values()
    var expect = Values()
    var upgrade = Values()

    /// Keeps `value` when `name` (a checked token, any case) is a framing
    /// field's; the lengths tell most names apart before a byte is compared.
    mutating func note(name: HeadSlice, value: HeadSlice) {
        switch name.count {
        case 17 where Self.equalsFolded(name, "transfer-encoding"): transferEncoding.append(value)
        case 14 where Self.equalsFolded(name, "content-length"): contentLength.append(value)
        case 10 where Self.equalsFolded(name, "connection"): connection.append(value)
        case 7 where Self.equalsFolded(name, "upgrade"): upgrade.append(value)
        case 6 where Self.equalsFolded(name, "expect"): expect.append(value)
        default: break
        }
    }

    /// The body's framing as `Transfer-Encoding` and `Content-Length` say
    /// it, or `nil` when the head has neither: `.chunked`, or `.length`
    /// (zero included). Refused: both fields at once (a smuggling shape,
    /// §6.1, §11.2), `Transfer-Encoding` in HTTP/1.0 (§6.1: faulty
    /// framing), any transfer coding but `chunked` alone (501: no other is
    /// decoded, so none can be passed on), a `Content-Length` that is not
    /// digits, or over `limits.maxBodyLength` (413). Repeated
    /// `Content-Length`s, as fields or as a list, are refused, unless
    /// `mergingIdentical` and their values are all the same (RFC 9110
    /// §8.6 allows either).
    func declaredFraming(minor: Int, limits: HTTPLimits, mergingIdentical: Bool) throws -> HTTPBodyDecoder.Framing? {
        if !transferEncoding.isEmpty {
            guard contentLength.isEmpty else { throw HTTPParseError.badRequest("Content-Length and Transfer-Encoding") }
            guard minor >= 1 else { throw HTTPParseError.badRequest("Transfer-Encoding in HTTP/1.0") }
            var codings = 0
            var chunked = true
            transferEncoding.forEach { value in
                Self.forEachMember(of: value) { coding in
                    codings += 1
                    chunked = chunked && Self.equalsFolded(coding, "chunked")
                }
            }
            guard codings == 1, chunked else {
                throw HTTPParseError(status: .notImplemented, reason: "transfer coding \(transferEncoding.text)")
            }
            return .chunked
        }
        guard var value = contentLength.first else { return nil }
        if mergingIdentical {
            // Every member of every value, OWS trimmed, empty ones kept:
            // all the same, or a conflict.
            var first: HeadSlice?
            var conflicting = false
            contentLength.forEach { field in
                Self.forEachMember(of: field, keepingEmpty: true) { member in
                    if let first {
                        conflicting = conflicting || !member.elementsEqual(first)
                    } else {
                        first = member
                    }
                }
            }
            guard !conflicting, let first else { throw HTTPParseError.badRequest("conflicting Content-Length values") }
            value = first
        } else {
            guard contentLength.count == 1 else { throw HTTPParseError.badRequest("more than one Content-Length") }
        }
        guard !value.isEmpty, value.count <= 18, value.allSatisfy(HTTPSyntax.isDigit) else {
            throw HTTPParseError.badRequest("malformed Content-Length")
        }
        let length = value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard length <= limits.maxBodyLength else {
            throw HTTPParseError(status: .contentTooLarge, reason: "Content-Length \(length) over \(limits.maxBodyLength)")
        }
        return .length(length)
    }

    /// Whether the connection stays open after the message (RFC 9112
    /// §9.3): HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with
    /// `Connection: keep-alive`.
    func keepAlive(minor: Int) -> Bool {
        guard !connection.isEmpty else { return minor >= 1 }
        let close = connection.containsMember("close")
        return minor >= 1 ? !close : !close && connection.containsMember("keep-alive")
    }

    /// Whether the message asks to switch protocols (RFC 9110 §7.8): an
    /// `Upgrade` field, and `upgrade` listed in `Connection` (its sender
    /// must list it there), in HTTP/1.1 (a server ignores `Upgrade` in an
    /// HTTP/1.0 request).
    func asksToUpgrade(minor: Int) -> Bool {
        minor >= 1 && !upgrade.isEmpty && connection.containsMember("upgrade")
    }

    /// Whether `Expect` lists `100-continue`.
    var expectsContinue: Bool {
        expect.containsMember("100-continue")
    }

    /// Calls `body` with each member of the comma-separated list `value`
    /// (RFC 9110 §5.6.1), OWS trimmed; empty members skipped, or with
    /// `keepingEmpty` passed on too (an empty value is one empty member).
    static func forEachMember(of value: HeadSlice, keepingEmpty: Bool = false, _ body: (HeadSlice) throws -> Void) rethrows {
        var start = value.startIndex
        while true {
            let end = value[start...].firstIndex(of: UInt8(ascii: ",")) ?? value.endIndex
            let member = HTTPSyntax.trimmed(value[start..<end])
            if keepingEmpty || !member.isEmpty { try body(member) }
            guard end < value.endIndex else { return }
            start = end + 1
        }
    }

    /// Whether `bytes` are `lower` (lower-case ASCII) with ASCII case folded.
    static func equalsFolded(_ bytes: HeadSlice, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        let expected = lower.utf8Start
        var offset = 0
        for byte in bytes {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard folded == expected[offset] else { return false }
            offset += 1
        }
        return true
    }
}
