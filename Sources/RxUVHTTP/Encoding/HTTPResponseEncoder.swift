import HTTPTypes
import RxUV

/// Writes responses as HTTP/1.1 (RFC 9112 §4, §6, §7): the status line and
/// fields of a head in one buffer, body bytes as they are (no copy), chunks
/// between their size line and CRLF. A `FrameEncoder`, so
/// `connection.write(part, using: HTTPResponseEncoder())` sends a part as
/// one vectored write.
///
/// A field value that holds CR, LF or NUL cannot be written (it would
/// split the response): swift-http-types replaces those bytes with spaces
/// when the field is made, so nothing here can be smuggled.
public struct HTTPResponseEncoder: FrameEncoder {
    public typealias Frame = HTTPResponsePart

    /// An encoder.
    public init() {}

    private static let contentLength = HTTPField.Name.contentLength
    private static let transferEncoding = HTTPField.Name.transferEncoding
    private static let connection = HTTPField.Name.connection
    private static let date = HTTPField.Name.date

    public func encode(_ part: HTTPResponsePart, into buffers: inout [ByteBuffer]) throws {
        switch part {
        case .head(let response, let body, let keepAlive, let date):
            buffers.append(Self.head(response, body: body, keepAlive: keepAlive, date: date))
        case .body(let bytes):
            if !bytes.isEmpty { buffers.append(bytes) }
        case .chunk(let bytes):
            guard !bytes.isEmpty else { return }
            buffers.append(ByteBuffer(string: String(bytes.count, radix: 16) + "\r\n"))
            buffers.append(bytes)
            buffers.append(ByteBuffer(string: "\r\n"))
        case .lastChunk(let trailers):
            var text = [UInt8]("0\r\n".utf8)
            for field in trailers ?? [:] { Self.append(field, to: &text) }
            text += [0x0D, 0x0A]
            buffers.append(ByteBuffer(text))
        }
    }

    private static func head(_ response: HTTPResponse, body: HTTPResponsePart.BodyFraming, keepAlive: Bool, date: String?) -> ByteBuffer {
        var text = [UInt8]()
        text.reserveCapacity(256)
        text += "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n".utf8
        var fields = response.headerFields
        switch body {
        case .none:
            break
        case .length(let length):
            fields[contentLength] = String(length)
            fields[values: transferEncoding] = []
        case .chunked:
            fields[values: contentLength] = []
            fields[transferEncoding] = "chunked"
        }
        if !keepAlive, !fields[values: connection].contains(where: { $0.lowercased() == "close" }) {
            fields.append(HTTPField(name: connection, value: "close"))
        }
        if let date, fields[Self.date] == nil {
            fields.append(HTTPField(name: Self.date, value: date))
        }
        for field in fields { append(field, to: &text) }
        text += [0x0D, 0x0A]
        return ByteBuffer(text)
    }

    /// `name: value CRLF`, the name as it was given.
    private static func append(_ field: HTTPField, to text: inout [UInt8]) {
        text += field.name.rawName.utf8
        text += [UInt8(ascii: ":"), UInt8(ascii: " ")]
        field.withUnsafeBytesOfValue { text += $0 }
        text += [0x0D, 0x0A]
    }
}
