import HTTPTypes
import RxUV

/// Chunked transfer coding on the way out (RFC 9112 §7.1), for requests and
/// responses alike: a chunk is its size line, its bytes (as they are, no
/// copy) and CRLF; the last chunk is `0`, the trailer fields and CRLF.
enum HTTPChunkEncoding {
    /// The CRLF after each chunk: one buffer for all of them.
    static let crlf = ByteBuffer(string: "\r\n")

    /// Appends `bytes` as one chunk; nothing for no bytes (an empty chunk
    /// would end the body).
    static func append(chunk bytes: ByteBuffer, to buffers: inout [ByteBuffer]) {
        guard !bytes.isEmpty else { return }
        buffers.append(sizeLine(bytes.count))
        buffers.append(bytes)
        buffers.append(crlf)
    }

    /// The last chunk and `trailers`, which end a chunked body.
    static func lastChunk(trailers: HTTPFields?) -> ByteBuffer {
        var text = [UInt8]("0\r\n".utf8)
        for field in trailers ?? [:] {
            text += field.name.rawName.utf8
            text += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            field.withUnsafeBytesOfValue { text += $0 }
            text += [HTTPSyntax.cr, HTTPSyntax.lf]
        }
        text += [HTTPSyntax.cr, HTTPSyntax.lf]
        return ByteBuffer(text)
    }

    /// `count` in hexadecimal and CRLF, written into the buffer at once
    /// (no string made and joined per chunk).
    static func sizeLine(_ count: Int) -> ByteBuffer {
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
}
