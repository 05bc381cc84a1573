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

    public func encode(_ part: HTTPResponsePart, into buffers: inout [ByteBuffer]) throws {
        switch part {
        case .head(let response, let body, let keepAlive, let date):
            var unkept = ByteBuffer.SpareStorage(keepLimit: 0)
            buffers.append(
                Self.head(
                    HTTPHeadLines(status: response.status, fields: response.headerFields), body: body, keepAlive: keepAlive, date: date,
                    reusing: &unkept))
        case .body(let bytes):
            if !bytes.isEmpty { buffers.append(bytes) }
        case .chunk(let bytes):
            guard !bytes.isEmpty else { return }
            buffers.append(Self.chunkSizeLine(bytes.count))
            buffers.append(bytes)
            buffers.append(Self.crlf)
        case .lastChunk(let trailers):
            var text = [UInt8]("0\r\n".utf8)
            for field in trailers ?? [:] { Self.append(field, to: &text) }
            text += [0x0D, 0x0A]
            buffers.append(ByteBuffer(text))
        }
    }

    /// The CRLF after each chunk: one buffer for all of them.
    private static let crlf = ByteBuffer(string: "\r\n")

    /// `count` in hexadecimal and CRLF, written into the buffer at once
    /// (no string made and joined per chunk).
    private static func chunkSizeLine(_ count: Int) -> ByteBuffer {
        ByteBuffer(unsafeUninitializedCapacity: 2 * MemoryLayout<Int>.size + 2) { memory in
            var digits = 1
            while count >> (4 * digits) > 0 { digits += 1 }
            for index in 0..<digits {
                let nibble = (count >> (4 * (digits - 1 - index))) & 0xF
                memory[index] = UInt8(nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10)
            }
            memory[digits] = HTTPSyntax.cr
            memory[digits + 1] = HTTPSyntax.lf
            return digits + 2
        }
    }

    /// The head: its status and fields' lines (made before, or kept by an
    /// `HTTPServerResponse`) and the server's own fields, written once into
    /// a buffer of the exact size. The response's own `Content-Length` and
    /// `Transfer-Encoding` give way to the framing's when there is a body;
    /// its `Date`, `Server` and `Connection: close` are kept and not
    /// written twice. `server` is written unless the fields have a
    /// `Server`. `content`, a small body, is copied in after the head: one
    /// buffer and one write for the whole response, where a head and a
    /// body of a few bytes would cost an array of two and a vectored write.
    /// The buffer is made in `spare`'s storage when no earlier head holds
    /// it any more (a connection's last head, which the kernel took).
    static func head(
        _ lines: HTTPHeadLines, body: HTTPResponsePart.BodyFraming, keepAlive: Bool, date: String?, server: String? = nil,
        content: ByteBuffer? = nil, reusing spare: inout ByteBuffer.SpareStorage
    ) -> ByteBuffer {
        var size = lines.lines.count
        // The response's own framing fields are written only with no framing.
        let framingFields = body == .none ? lines.framing : nil
        size += framingFields?.count ?? 0
        switch body {
        case .none: break
        case .length(let length): size += 16 + HTTPHeadWriter.decimalCount(length) + 2
        case .chunked: size += 28
        }
        let closes = !keepAlive && !lines.saysClose
        if closes { size += 19 }
        let writtenDate = lines.hasDate ? nil : date
        if let writtenDate { size += 6 + writtenDate.utf8.count + 2 }
        let writtenServer = lines.hasServer ? nil : server
        if let writtenServer { size += 8 + writtenServer.utf8.count + 2 }
        size += 2 + (content?.count ?? 0)
        return ByteBuffer(unsafeUninitializedCapacity: size, reusing: &spare) { memory in
            var writer = HTTPHeadWriter(memory)
            lines.lines.withUnsafeBytes { writer.write(bytes: $0) }
            framingFields?.withUnsafeBytes { writer.write(bytes: $0) }
            switch body {
            case .none:
                break
            case .length(let length):
                writer.write(literal: "Content-Length: ")
                writer.write(decimal: length)
                writer.write(literal: "\r\n")
            case .chunked:
                writer.write(literal: "Transfer-Encoding: chunked\r\n")
            }
            if closes {
                writer.write(literal: "Connection: close\r\n")
            }
            if let writtenServer {
                writer.write(literal: "Server: ")
                writer.write(writtenServer)
                writer.write(literal: "\r\n")
            }
            if let writtenDate {
                writer.write(literal: "Date: ")
                writer.write(writtenDate)
                writer.write(literal: "\r\n")
            }
            writer.write(literal: "\r\n")
            content?.withUnsafeBytes { writer.write(bytes: $0) }
            return writer.count
        }
    }

    /// `name: value CRLF`, the name as it was given.
    private static func append(_ field: HTTPField, to text: inout [UInt8]) {
        text += field.name.rawName.utf8
        text += [UInt8(ascii: ":"), UInt8(ascii: " ")]
        field.withUnsafeBytesOfValue { text += $0 }
        text += [0x0D, 0x0A]
    }
}
