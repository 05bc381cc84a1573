import HTTPTypes

// What a head's fields mean for the request: Host, the body's framing
// (RFC 9112 §6), keep-alive, Expect.
extension HTTPRequestDecoder {
    /// What the head says of the fields that decide a request's framing:
    /// Host, and which of the others it has (their values are read from
    /// the header fields only then, so that a request with none of them,
    /// most of them, makes no array for them).
    struct FramingFields {
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

    /// The request's meaning: Host checked (unless `hostChecked`), the
    /// body's framing, keep-alive, Expect.
    func interpret(
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
}
