import HTTPTypes
import RxUV

/// Writes requests as HTTP/1.x (RFC 9112 §3, §6, §7), what a client sends:
/// the request line, `Host` and the fields of a head in one buffer, body
/// bytes as they are (no copy), chunks between their size line and CRLF.
/// A `FrameEncoder` of `HTTPClientRequestPart`s, so
/// `connection.write(part, using: HTTPRequestEncoder())` sends a part as
/// one vectored write, and what `HTTPRequestDecoder` reads back is what was
/// given:
/// - `.head`: `method SP request-target SP HTTP/1.x`, then `Host` (the
///   request's `authority`; empty when it has none, as RFC 9112 §3.2 asks
///   of HTTP/1.1), then the fields in their order. The head's framing
///   decides the body's fields: `Content-Length` or `Transfer-Encoding:
///   chunked` in place of the request's own (which are written only for a
///   head with no body). `keepAlive` false adds `Connection: close` (true
///   on HTTP/1.0 adds `Connection: keep-alive`), `expectsContinue` adds
///   `Expect: 100-continue`, each unless the fields say it already.
/// - `.body`, `.chunk`, `.lastChunk`: as `HTTPResponseEncoder` writes them.
///
/// Refused with `HTTPRequestEncoder.Error`, nothing written: a request
/// target or authority with a byte that would split or bend the request
/// line (a control byte, a space, DEL or a non-ASCII byte), a version other
/// than 1.0 and 1.1, and a chunked body on HTTP/1.0, which has no chunks.
/// Field values cannot hold CR, LF or NUL (swift-http-types replaces them
/// when a field is made), so no field can smuggle a line either.
public struct HTTPRequestEncoder: FrameEncoder {
    public typealias Frame = HTTPClientRequestPart

    /// Why a request cannot be written.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the request (`a space in the request target`).
        public let reason: String

        /// `cannot write the request: <reason>`.
        public var description: String {
            "cannot write the request: \(reason)"
        }
    }

    /// An encoder.
    public init() {}

    /// Appends the bytes of `part` to `buffers`; throws
    /// `HTTPRequestEncoder.Error`, having appended nothing, for a head that
    /// cannot be written.
    public func encode(_ part: HTTPClientRequestPart, into buffers: inout [ByteBuffer]) throws {
        switch part {
        case .head(let head):
            buffers.append(try Self.head(head))
        case .body(let bytes):
            if !bytes.isEmpty { buffers.append(bytes) }
        case .chunk(let bytes):
            HTTPChunkEncoding.append(chunk: bytes, to: &buffers)
        case .lastChunk(let trailers):
            buffers.append(HTTPChunkEncoding.lastChunk(trailers: trailers))
        }
    }

    /// The head in one buffer of the exact size: what `encode(.head(_:))`
    /// appends, for a caller that writes the head alone.
    package static func head(_ head: HTTPRequestHead) throws(Error) -> ByteBuffer {
        let request = head.request
        guard head.minorVersion == 0 || head.minorVersion == 1 else {
            throw Error(reason: "HTTP/1.\(head.minorVersion) is not a version HTTP/1.x has (1.0, 1.1)")
        }
        if head.minorVersion == 0, head.body == .chunked {
            throw Error(reason: "a chunked body on HTTP/1.0, which has no chunked coding")
        }
        let target = request.path ?? request.authority ?? "/"
        try checkLineBytes(target, "the request target")
        let host = request.authority ?? ""
        try checkLineBytes(host, "the authority", allowEmpty: true)

        var fieldsSize = 0
        var saysClose = false
        var saysKeepAlive = false
        var saysContinue = false
        for field in request.headerFields {
            switch role(of: field.name) {
            case .host:
                continue
            case .framing where head.body != .none:
                continue
            case .connection:
                saysClose = saysClose || Self.mentions("close", in: field)
                saysKeepAlive = saysKeepAlive || Self.mentions("keep-alive", in: field)
            case .expect:
                saysContinue = saysContinue || Self.mentions("100-continue", in: field)
            case .framing, .other:
                break
            }
            fieldsSize += field.name.rawName.utf8.count + 2 + field.value.utf8.count + 2
        }
        let addsClose = !head.keepAlive && !saysClose
        let addsKeepAlive = head.keepAlive && head.minorVersion == 0 && !saysKeepAlive
        let addsContinue = head.expectsContinue && !saysContinue
        let method = request.method.rawValue

        var size = method.utf8.count + 1 + target.utf8.count + 11
        size += 6 + host.utf8.count + 2 + fieldsSize
        let framingField = HTTPHeadWriter.FramingField(head.body)
        size += framingField.size
        if addsClose { size += 19 }
        if addsKeepAlive { size += 24 }
        if addsContinue { size += 22 }
        size += 2
        return ByteBuffer(unsafeUninitializedCapacity: size) { memory in
            var writer = HTTPHeadWriter(memory)
            writer.write(method)
            writer.write(literal: " ")
            writer.write(target)
            writer.write(literal: head.minorVersion == 0 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n")
            writer.write(literal: "Host: ")
            writer.write(host)
            writer.write(literal: "\r\n")
            for field in request.headerFields {
                switch role(of: field.name) {
                case .host: continue
                case .framing where head.body != .none: continue
                default: break
                }
                writer.write(field.name.rawName)
                writer.write(literal: ": ")
                field.withUnsafeBytesOfValue { writer.write(bytes: UnsafeRawBufferPointer($0)) }
                writer.write(literal: "\r\n")
            }
            writer.write(framingField)
            if addsClose { writer.write(literal: "Connection: close\r\n") }
            if addsKeepAlive { writer.write(literal: "Connection: keep-alive\r\n") }
            if addsContinue { writer.write(literal: "Expect: 100-continue\r\n") }
            writer.write(literal: "\r\n")
            return writer.count
        }
    }

    /// Refuses a request-line part with a byte that is not visible ASCII
    /// (RFC 9112 §3: the line's parts are separated by single spaces, and
    /// a target is made of visible characters).
    private static func checkLineBytes(_ text: String, _ what: String, allowEmpty: Bool = false) throws(Error) {
        guard allowEmpty || !text.isEmpty else { throw Error(reason: "\(what) is empty") }
        // On the contiguous UTF-8 bytes: no `String.UTF8View` index walked.
        var bytes = text
        let refused = bytes.withUTF8 { bytes in bytes.first { $0 <= 0x20 || $0 >= 0x7F } }
        if let byte = refused {
            throw Error(reason: "\(what) holds the byte 0x\(String(byte, radix: 16)) (\(String(reflecting: text)))")
        }
    }

    /// Whether `field`'s comma-separated value lists `token` (lowercase
    /// ASCII), in any case.
    private static func mentions(_ token: StaticString, in field: HTTPField) -> Bool {
        let wanted = UnsafeRawBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)
        return field.withUnsafeBytesOfValue { value in
            var start = 0
            while start <= value.count {
                var end = start
                while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last, value[first] == HTTPSyntax.space || value[first] == HTTPSyntax.tab { first += 1 }
                while last > first, value[last - 1] == HTTPSyntax.space || value[last - 1] == HTTPSyntax.tab { last -= 1 }
                if last - first == wanted.count, zip(value[first..<last], wanted).allSatisfy({ $0 | 0x20 == $1 }) {
                    return true
                }
                start = end + 1
            }
            return false
        }
    }

    /// What a field is to the head.
    private enum FieldRole {
        /// `Host`: the request's authority is written in its place.
        case host
        /// `Content-Length` or `Transfer-Encoding`.
        case framing
        case connection
        case expect
        case other
    }

    /// What `name` is to the head; its length tells most names apart
    /// before one string is compared.
    private static func role(of name: HTTPField.Name) -> FieldRole {
        let canonical = name.canonicalName
        switch canonical.utf8.count {
        case 4 where canonical == "host": return .host
        case 14 where canonical == "content-length": return .framing
        case 17 where canonical == "transfer-encoding": return .framing
        case 10 where canonical == "connection": return .connection
        case 6 where canonical == "expect": return .expect
        default: return .other
        }
    }
}
