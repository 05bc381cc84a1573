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
            buffers.append(Self.head(response, status: response.status, body: body, keepAlive: keepAlive, date: date))
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

    /// The status line and the fields, written once into a buffer of the
    /// exact size: a first pass over the response's fields sizes the head
    /// and decides which of them are written (its own `Content-Length`
    /// and `Transfer-Encoding` give way to the framing's when there is a
    /// body; its `Date` and `Connection: close` are kept and not written
    /// twice), the second writes them.
    ///
    /// `status` is `response.status`, which swift-http-types reads out of a
    /// field on every call: a server that has it already passes it.
    /// `content`, a small body, is copied in after the head: one buffer
    /// and one write for the whole response, where a head and a body of a
    /// few bytes would cost an array of two and a vectored write.
    static func head(
        _ response: HTTPResponse, status: HTTPResponse.Status, body: HTTPResponsePart.BodyFraming, keepAlive: Bool, date: String?,
        content: ByteBuffer? = nil
    ) -> ByteBuffer {
        let code = status.code
        let reason = status.reasonPhrase
        var hasDate = false
        var saysClose = false
        var size = 9 + HeadWriter.decimalCount(code) + 1 + reason.utf8.count + 2
        // The response's own framing fields give way to the framing's.
        func written(_ role: FieldRole) -> Bool {
            body == .none || role != .framing
        }
        // Whether a field is left out; when none is (the usual head), the
        // second pass writes them all without telling roles again.
        var leavesOut = false
        for field in response.headerFields {
            let role = Self.role(of: field.name)
            guard written(role) else {
                leavesOut = true
                continue
            }
            switch role {
            case .date:
                hasDate = true
            case .connection:
                saysClose = saysClose || field.value.utf8.elementsEqual("close".utf8) { $0 | 0x20 == $1 }
            case .framing, .other:
                break
            }
            size += field.name.rawName.utf8.count + 2 + field.value.utf8.count + 2
        }
        switch body {
        case .none: break
        case .length(let length): size += 16 + HeadWriter.decimalCount(length) + 2
        case .chunked: size += 28
        }
        let closes = !keepAlive && !saysClose
        if closes { size += 19 }
        let writesDate = date != nil && !hasDate
        if writesDate, let date { size += 6 + date.utf8.count + 2 }
        size += 2 + (content?.count ?? 0)
        return ByteBuffer(unsafeUninitializedCapacity: size) { memory in
            var writer = HeadWriter(memory)
            writer.write(literal: "HTTP/1.1 ")
            writer.write(decimal: code)
            writer.write(literal: " ")
            writer.write(reason)
            writer.write(literal: "\r\n")
            for field in response.headerFields where !leavesOut || written(Self.role(of: field.name)) {
                writer.write(field.name.rawName)
                writer.write(literal: ": ")
                field.withUnsafeBytesOfValue { writer.write(bytes: UnsafeRawBufferPointer($0)) }
                writer.write(literal: "\r\n")
            }
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
            if writesDate, let date {
                writer.write(literal: "Date: ")
                writer.write(date)
                writer.write(literal: "\r\n")
            }
            writer.write(literal: "\r\n")
            content?.withUnsafeBytes { writer.write(bytes: $0) }
            return writer.count
        }
    }

    /// What a response's field is to the head.
    private enum FieldRole {
        /// `Content-Length` or `Transfer-Encoding`.
        case framing
        case date
        case connection
        case other
    }

    /// Told by the name's length first: most fields are none of the four
    /// and differ from them in length, so a field costs a comparison of
    /// counts, not four of strings (two passes of them per response).
    private static func role(of name: HTTPField.Name) -> FieldRole {
        switch name.canonicalName.utf8.count {
        case 4: name == date ? .date : .other
        case 10: name == connection ? .connection : .other
        case 14: name == contentLength ? .framing : .other
        case 17: name == transferEncoding ? .framing : .other
        default: .other
        }
    }

    /// Writes a head into memory sized for it (`head` counts first); a
    /// write past the end stops the program rather than corrupt memory.
    private struct HeadWriter {
        private let memory: UnsafeMutableRawBufferPointer
        private(set) var count = 0

        init(_ memory: UnsafeMutableRawBufferPointer) {
            self.memory = memory
        }

        /// The number of decimal digits of `value` (and its sign).
        static func decimalCount(_ value: Int) -> Int {
            var digits = value < 0 ? 2 : 1
            var rest = value.magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            return digits
        }

        @inline(__always)
        mutating func write(bytes: UnsafeRawBufferPointer) {
            precondition(bytes.count <= memory.count - count, "HTTPResponseEncoder: a head past its size")
            if let source = bytes.baseAddress {
                (memory.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
            }
            count += bytes.count
        }

        @inline(__always)
        mutating func write(literal text: StaticString) {
            write(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        @inline(__always)
        mutating func write(_ text: String) {
            var text = text
            text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
        }

        mutating func write(decimal value: Int) {
            let digits = Self.decimalCount(value)
            precondition(digits <= memory.count - count, "HTTPResponseEncoder: a head past its size")
            var rest = value.magnitude
            var index = count + digits - 1
            repeat {
                memory[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
            if value < 0 { memory[count] = UInt8(ascii: "-") }
            count += digits
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
