import HTTPTypes
import RxUV

/// A response head's status line and header fields in their wire form
/// (`HTTP/1.1 200 OK`, then `Name: value` each in the order given, every
/// line with its CRLF), with what a head writer must know of the fields:
/// made once from a status and `HTTPFields`, so that a response answered
/// many times (a `static let` of a handler, a health check) is not written
/// field by field, string by string, on every answer.
///
/// The framing fields (`Content-Length`, `Transfer-Encoding`) are kept
/// apart: a head whose body has a framing writes the framing's own in
/// their place. Immutable, and a class, so that handing the lines along
/// copies one reference.
final class HTTPHeadLines: Sendable {
    /// The status line, then every field but the framing ones.
    let lines: ByteBuffer
    /// The framing fields' lines; `nil` when there is none (the usual).
    let framing: ByteBuffer?
    /// A `Date` field is among them.
    let hasDate: Bool
    /// A `Connection` field says `close`.
    let saysClose: Bool
    /// A `Server` field is among them.
    let hasServer: Bool

    /// The lines of a head with `status` and `fields`.
    init(status: HTTPResponse.Status, fields: HTTPFields) {
        var hasDate = false
        var saysClose = false
        var hasServer = false
        var size = 0
        var framingSize = 0
        for field in fields {
            let lineSize = field.name.rawName.utf8.count + 2 + field.value.utf8.count + 2
            switch Self.role(of: field.name) {
            case .framing:
                framingSize += lineSize
                continue
            case .date:
                hasDate = true
            case .connection:
                saysClose = saysClose || field.value.utf8.elementsEqual("close".utf8) { $0 | 0x20 == $1 }
            case .server:
                hasServer = true
            case .other:
                break
            }
            size += lineSize
        }
        self.hasDate = hasDate
        self.saysClose = saysClose
        self.hasServer = hasServer
        let code = status.code
        let reason = status.reasonPhrase
        let statusSize = 9 + HTTPHeadWriter.decimalCount(code) + 1 + reason.utf8.count + 2
        lines = ByteBuffer(unsafeUninitializedCapacity: statusSize + size) { memory in
            var writer = HTTPHeadWriter(memory)
            writer.write(literal: "HTTP/1.1 ")
            writer.write(decimal: code)
            writer.write(literal: " ")
            writer.write(reason)
            writer.write(literal: "\r\n")
            Self.write(fields, framing: false, with: &writer)
            return writer.count
        }
        framing =
            framingSize == 0
            ? nil
            : ByteBuffer(unsafeUninitializedCapacity: framingSize) { memory in
                var writer = HTTPHeadWriter(memory)
                Self.write(fields, framing: true, with: &writer)
                return writer.count
            }
    }

    /// Writes the lines of the fields that are framing ones (`framing`) or
    /// not.
    private static func write(_ fields: HTTPFields, framing: Bool, with writer: inout HTTPHeadWriter) {
        for field in fields where (role(of: field.name) == .framing) == framing {
            writer.write(field.name.rawName)
            writer.write(literal: ": ")
            field.withUnsafeBytesOfValue { writer.write(bytes: UnsafeRawBufferPointer($0)) }
            writer.write(literal: "\r\n")
        }
    }

    /// What a field is to the head.
    private enum FieldRole {
        /// `Content-Length` or `Transfer-Encoding`.
        case framing
        case date
        case connection
        case server
        case other
    }

    private static let contentLength = HTTPField.Name.contentLength
    private static let transferEncoding = HTTPField.Name.transferEncoding
    private static let connection = HTTPField.Name.connection
    private static let date = HTTPField.Name.date
    private static let server = HTTPField.Name.server

    /// Told by the name's length first: most fields are none of these and
    /// differ from them in length, so a field costs a comparison of counts,
    /// not five of strings.
    private static func role(of name: HTTPField.Name) -> FieldRole {
        switch name.canonicalName.utf8.count {
        case 4: name == date ? .date : .other
        case 6: name == server ? .server : .other
        case 10: name == connection ? .connection : .other
        case 14: name == contentLength ? .framing : .other
        case 17: name == transferEncoding ? .framing : .other
        default: .other
        }
    }
}
