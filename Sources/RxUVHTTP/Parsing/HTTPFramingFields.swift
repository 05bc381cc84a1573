import HTTPTypes

/// What a head says of the fields that decide a message's framing (RFC
/// 9112 §6): which of `Transfer-Encoding`, `Content-Length`, `Connection`
/// and `Expect` it has (their values are read from the header fields only
/// then, so that a message with none of them, most of them, makes no
/// array for them), and a request's Host. The request and the response
/// decoders read them the same way.
struct HTTPFramingFields {
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

    /// A request's first Host value, in the head's bytes, and how many
    /// there were.
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
        // A walk over the few fields of a head: `fields[values:]` would
        // build the fields' name index first, which costs more than the
        // walk for one name.
        var values: [String] = []
        for field in fields where field.name == name {
            values.append(field.value)
        }
        return values
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
    func declaredFraming(minor: Int, in fields: HTTPFields, limits: HTTPLimits, mergingIdentical: Bool) throws -> HTTPBodyDecoder.Framing? {
        let transferEncodings = values(.transferEncoding, in: fields)
        let contentLengths = values(.contentLength, in: fields)
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else { throw HTTPParseError.badRequest("Content-Length and Transfer-Encoding") }
            guard minor >= 1 else { throw HTTPParseError.badRequest("Transfer-Encoding in HTTP/1.0") }
            let codings = transferEncodings.flatMap(HTTPSyntax.listMembers)
            guard codings == ["chunked"] else {
                throw HTTPParseError(status: .notImplemented, reason: "transfer coding \(transferEncodings.joined(separator: ", "))")
            }
            return .chunked
        }
        guard !contentLengths.isEmpty else { return nil }
        var value = contentLengths[0]
        if mergingIdentical {
            let members = contentLengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingOWS() } }
            guard let first = members.first, members.allSatisfy({ $0 == first }) else {
                throw HTTPParseError.badRequest("conflicting Content-Length values")
            }
            value = String(first)
        } else {
            guard contentLengths.count == 1 else { throw HTTPParseError.badRequest("more than one Content-Length") }
        }
        let digits = value.utf8
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(HTTPSyntax.isDigit), let length = Int(value) else {
            throw HTTPParseError.badRequest("malformed Content-Length")
        }
        guard length <= limits.maxBodyLength else {
            throw HTTPParseError(status: .contentTooLarge, reason: "Content-Length \(length) over \(limits.maxBodyLength)")
        }
        return .length(length)
    }

    /// Whether the connection stays open after the message (RFC 9112
    /// §9.3): HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with
    /// `Connection: keep-alive`.
    func keepAlive(minor: Int, in fields: HTTPFields) -> Bool {
        guard present.contains(.connection) else { return minor >= 1 }
        let connection = values(.connection, in: fields).flatMap(HTTPSyntax.listMembers)
        return minor >= 1 ? !connection.contains("close") : connection.contains("keep-alive") && !connection.contains("close")
    }
}
