import HTTPTypes
import RxUV

// A chunked body's lines (RFC 9112 §7.1) and the trailer section after
// its last chunk.
extension HTTPBodyDecoder {
    /// A chunk line of at most `limit` bytes without its CRLF, or `nil`
    /// until it is whole. Chunk lines end with CRLF, strictly: a bare LF
    /// there is how a body's framing is read two ways. The verdict rests
    /// on the first `limit + 2` bytes only, so it is the same however the
    /// bytes arrive.
    func readLine(_ reader: inout ByteBuffer.Reader, limit: Int, tooLong: HTTPParseError) throws -> [UInt8]? {
        guard let newline = reader.firstIndex(of: HTTPSyntax.lf), newline < limit + 2 else {
            // No LF where one must be by now: too long, whatever follows.
            if reader.readableBytes >= limit + 2 { throw tooLong }
            return nil
        }
        guard let raw = reader.readBytes(newline + 1) else { return nil }
        var line = Array(raw.dropLast())
        guard line.last == HTTPSyntax.cr else { throw HTTPParseError.badRequest("chunk line without CRLF") }
        line.removeLast()
        if line.count > limit { throw tooLong }
        if line.contains(HTTPSyntax.cr) { throw HTTPParseError.badRequest("bare CR") }
        return line
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1): hex digits that fit in
    /// 63 bits, then extensions, which are checked and ignored.
    static func chunkSize(_ line: [UInt8]) throws -> UInt64 {
        var size: UInt64 = 0
        var index = 0
        while index < line.count, let digit = HTTPSyntax.hexValue(line[index]) {
            guard size <= (UInt64(Int64.max) - digit) / 16 else { throw HTTPParseError.badRequest("chunk size over 2^63") }
            size = size * 16 + digit
            index += 1
        }
        guard index > 0 else { throw HTTPParseError.badRequest("malformed chunk size") }
        let rest = line[index...]
        if let first = rest.first {
            guard first == HTTPSyntax.semicolon || first == HTTPSyntax.space || first == HTTPSyntax.tab else {
                throw HTTPParseError.badRequest("malformed chunk size")
            }
            guard rest.allSatisfy({ HTTPSyntax.isFieldValue($0) }) else { throw HTTPParseError.badRequest("malformed chunk extension") }
        }
        return size
    }

    /// The trailer section after the last chunk, up to its empty line,
    /// held to the head's limits.
    mutating func decodeTrailers(_ reader: inout ByteBuffer.Reader) throws -> Part? {
        // The empty line alone: no trailers.
        if let first = reader.buffer.first(at: reader.readerIndex) {
            if first == HTTPSyntax.lf || (first == HTTPSyntax.cr && reader.readableBytes >= 2 && reader.buffer.first(at: reader.readerIndex + 1) == HTTPSyntax.lf) {
                reader.moveReaderIndex(forwardBy: first == HTTPSyntax.lf ? 1 : 2)
                state = .done
                return .end(last: ByteBuffer(), trailers: nil)
            }
        } else {
            return nil
        }
        guard let end = try scanner.sectionEnd(reader, isHead: false, limits: limits) else { return nil }
        guard let section = reader.readBytes(end) else { return nil }
        scanner.reset()
        let fields = try section.withHeadBytes { try HTTPFieldLines.trailerFields($0, limits: limits) }
        state = .done
        return .end(last: ByteBuffer(), trailers: fields)
    }
}
