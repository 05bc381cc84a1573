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
            HTTPChunkEncoding.append(chunk: bytes, to: &buffers)
        case .lastChunk(let trailers):
            buffers.append(HTTPChunkEncoding.lastChunk(trailers: trailers))
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
        let framingField = HTTPHeadWriter.FramingField(body)
        size += framingField.size
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
            writer.write(framingField)
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
}
