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

    /// The status line and fields in one pass over the response's fields:
    /// its own `Content-Length` and `Transfer-Encoding` give way to the
    /// framing's (when there is a body), its `Date` and `Connection: close`
    /// are kept and not written twice.
    private static func head(_ response: HTTPResponse, body: HTTPResponsePart.BodyFraming, keepAlive: Bool, date: String?) -> ByteBuffer {
        var text = [UInt8]()
        text.reserveCapacity(128 + response.headerFields.count * 48)
        text += "HTTP/1.1 ".utf8
        text += String(response.status.code).utf8
        text.append(0x20)
        text += response.status.reasonPhrase.utf8
        text += [0x0D, 0x0A]
        var hasDate = false
        var saysClose = false
        for field in response.headerFields {
            switch field.name {
            case contentLength, transferEncoding:
                if body != .none { continue }
            case Self.date:
                hasDate = true
            case connection:
                saysClose = saysClose || field.value.utf8.elementsEqual("close".utf8) { $0 | 0x20 == $1 }
            default:
                break
            }
            append(field, to: &text)
        }
        switch body {
        case .none:
            break
        case .length(let length):
            text += "Content-Length: ".utf8
            text += String(length).utf8
            text += [0x0D, 0x0A]
        case .chunked:
            text += "Transfer-Encoding: chunked\r\n".utf8
        }
        if !keepAlive, !saysClose {
            text += "Connection: close\r\n".utf8
        }
        if let date, !hasDate {
            text += "Date: ".utf8
            text += date.utf8
            text += [0x0D, 0x0A]
        }
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
