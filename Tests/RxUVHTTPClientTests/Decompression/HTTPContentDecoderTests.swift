import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVHTTPClient

/// `HTTPContentDecoder`: gzip, zlib and raw deflate bodies that python3's
/// gzip and zlib modules made, fed whole, a byte at a time and in random
/// splits; several gzip members; and the bodies it refuses (truncated,
/// corrupt, trailing bytes, a decompression bomb).
final class HTTPContentDecoderTests: BridgeTestCase {
    /// How python3 makes each of the three formats from its standard input.
    private enum Format: CaseIterable {
        /// gzip (RFC 1952), python3's `gzip.compress`.
        case gzip
        /// The zlib format (RFC 1950), HTTP's "deflate": `zlib.compress`.
        case zlib
        /// Raw deflate (RFC 1951), which many servers send as "deflate".
        case rawDeflate

        /// The `Content-Encoding` coding that carries the format.
        var coding: HTTPContentDecoder.Coding {
            self == .gzip ? .gzip : .deflate
        }

    }

    /// `payload` in each of the three formats, from one python3 run: each
    /// one after its length (8 bytes, little-endian).
    private func compressions(of payload: [UInt8]) throws -> [Format: [UInt8]] {
        let script = """
            import sys, gzip, struct, zlib
            data = sys.stdin.buffer.read()
            raw = zlib.compressobj(6, zlib.DEFLATED, -15)
            for out in (gzip.compress(data), zlib.compress(data), raw.compress(data) + raw.flush()):
                sys.stdout.buffer.write(struct.pack('<Q', len(out)) + out)
            """
        let output = try pythonOutput(script, input: payload)
        var compressed: [Format: [UInt8]] = [:]
        var at = 0
        for format in Format.allCases {
            let count = output[at..<at + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            compressed[format] = Array(output[at + 8..<at + 8 + count])
            at += 8 + count
        }
        XCTAssertEqual(at, output.count)
        return compressed
    }

    /// The payloads of the round trips: 0 B, 1 B, 1 MiB of random bytes and
    /// 1 MiB of a repeated line.
    private static let payloads: [(name: String, bytes: [UInt8])] = {
        // Eight random bytes a step, and a line doubled: a byte-by-byte
        // loop over 1 MiB is slow in a debug build.
        var generator = SeededGenerator(seed: 0x7A11B)
        let random = [UInt8](unsafeUninitializedCapacity: 1 << 20) { bytes, count in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            for offset in stride(from: 0, to: raw.count, by: 8) {
                raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
            count = raw.count
        }
        var repeated = Array("RxUV inflates this line again and again.\n".utf8)
        while repeated.count < 1 << 20 {
            repeated += repeated
        }
        repeated.removeLast(repeated.count - (1 << 20))
        return [("0 B", []), ("1 B", [0x2A]), ("1 MiB random", random), ("1 MiB repeated", repeated)]
    }()

    /// A generous bound for the round trips.
    private static let bound = 10 << 20

    /// The `Content-Encoding` values that name gzip or deflate, and those that do not.
    func testCodingForContentEncoding() {
        let cases: [(String, HTTPContentDecoder.Coding?)] = [
            ("gzip", .gzip), ("GZIP", .gzip), (" gzip\t", .gzip), ("x-gzip", .gzip), ("X-Gzip ", .gzip),
            ("deflate", .deflate), ("Deflate", .deflate), ("\tDEFLATE  ", .deflate),
            ("identity", nil), ("br", nil), ("compress", nil), ("x-deflate", nil), ("gzip, gzip", nil), ("", nil), (" ", nil), ("gzip;q=1", nil),
        ]
        for (value, coding) in cases {
            XCTAssertEqual(HTTPContentDecoder.coding(forContentEncoding: value), coding, "'\(value)'")
        }
    }

    /// The first two bytes that tell a zlib header from raw deflate.
    func testZlibHeaderDetection() {
        // zlib.compress at levels 1, 6 and 9, and a 1 KiB window; then raw
        // deflate's usual first bytes, and headers with a bad check,
        // another method, or a window past 32 KiB.
        for (cmf, flg) in [(0x78, 0x01), (0x78, 0x9C), (0x78, 0xDA), (0x28, 0x15)] as [(UInt8, UInt8)] {
            XCTAssertTrue(HTTPContentDecoder.isZlibHeader(cmf, flg), "\(cmf) \(flg)")
        }
        for (cmf, flg) in [(0xED, 0xBD), (0xCB, 0x48), (0x03, 0x00), (0x78, 0x9D), (0x79, 0x9C), (0x88, 0x1D)] as [(UInt8, UInt8)] {
            XCTAssertFalse(HTTPContentDecoder.isZlibHeader(cmf, flg), "\(cmf) \(flg)")
        }
    }

    /// Each payload in each format comes back, fed whole, in random splits
    /// and a byte at a time (for the MiB of random bytes, which is slow a
    /// byte at a time in a debug build, in gzip only: the three formats
    /// share the loop that feeds zlib).
    func testRoundTrips() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for (name, payload) in Self.payloads {
            let compressions = try compressions(of: payload)
            for format in Format.allCases {
                let compressed = compressions[format]!
                let context = "\(format) of \(name) (\(compressed.count) B compressed)"
                try assertInflates(compressed, format.coding, to: payload, chunks: [compressed.count], context + ", whole")
                try assertInflates(compressed, format.coding, to: payload, chunks: randomSplits(of: compressed.count, upTo: 9000, using: &generator), context + ", random splits")
                guard compressed.count < 100_000 || format == .gzip else { continue }
                try assertInflates(compressed, format.coding, to: payload, chunks: Array(repeating: 1, count: compressed.count), context + ", a byte at a time")
            }
        }
    }

    /// Several gzip members one after the other inflate to their payloads joined.
    func testConcatenatedGzipMembers() throws {
        // Two members around an empty one, as `cat a.gz empty.gz b.gz` makes.
        let members = try pythonOutput("import sys, gzip; sys.stdout.buffer.write(gzip.compress(b'the first member, ') + gzip.compress(b'') + gzip.compress(b'z' * 200000))")
        let first = Array("the first member, ".utf8)
        let second = Array(repeating: UInt8(ascii: "z"), count: 200_000)
        for chunk in [members.count, 1, 7] {
            let chunks = stride(from: 0, to: members.count, by: chunk).map { min(chunk, members.count - $0) }
            try assertInflates(members, .gzip, to: first + second, chunks: chunks, "three members in chunks of \(chunk) B")
        }
    }

    /// A body with no byte at all is an empty body.
    func testEmptyBody() throws {
        for coding in [HTTPContentDecoder.Coding.gzip, .deflate] {
            let decoder = try HTTPContentDecoder(coding, maxDecodedLength: 0)
            XCTAssertEqual(try decoder.decode(ByteBuffer()), [], "\(coding)")
            XCTAssertNoThrow(try decoder.finish(), "a body with no byte at all is empty (\(coding))")
        }
    }

    /// A body cut anywhere fails at `finish()`.
    func testTruncatedBodyFailsOnFinish() throws {
        let payload = Self.payloads[3].bytes
        let compressions = try compressions(of: payload)
        for format in Format.allCases {
            let compressed = compressions[format]!
            for kept in [1, 2, 9, 10, compressed.count / 2, compressed.count - 4, compressed.count - 1] {
                let decoder = try HTTPContentDecoder(format.coding, maxDecodedLength: Self.bound)
                let pieces = try decoder.decode(ByteBuffer(compressed[..<kept]))
                XCTAssertLessThan(pieces.reduce(0) { $0 + $1.count }, payload.count + 1, "\(format), \(kept) B")
                assertDecompressionError(try decoder.finish(), "the compressed body ends early", "\(format) cut to \(kept) B")
            }
        }
    }

    /// A changed byte in the data, a checksum, a length or a header is refused.
    func testCorruptDataThrows() throws {
        let payload = Self.payloads[3].bytes
        let compressions = try compressions(of: payload)
        let gzip = compressions[.gzip]!
        let zlib = compressions[.zlib]!
        // A byte inside the deflate data, a gzip CRC and length, zlib's Adler-32, a gzip method.
        let cases: [([UInt8], HTTPContentDecoder.Coding, Int, String)] = [
            (gzip, .gzip, gzip.count / 2, "gzip data is corrupt: "),
            (gzip, .gzip, gzip.count - 6, "gzip data is corrupt: incorrect data check"),
            (gzip, .gzip, gzip.count - 2, "gzip data is corrupt: incorrect length check"),
            (gzip, .gzip, 2, "gzip data is corrupt: unknown compression method"),
            (zlib, .deflate, zlib.count / 2, "deflate data is corrupt: "),
            (zlib, .deflate, zlib.count - 1, "deflate data is corrupt: incorrect data check"),
        ]
        for (compressed, coding, index, expected) in cases {
            var corrupt = compressed
            corrupt[index] ^= 0x55
            let decoder = try HTTPContentDecoder(coding, maxDecodedLength: Self.bound)
            let error = catchDecompressionError {
                _ = try decoder.decode(ByteBuffer(corrupt))
                try decoder.finish()
            }
            XCTAssertTrue(error?.detail.hasPrefix(expected) == true, "byte \(index) of \(coding): \(String(describing: error))")
        }
    }

    /// Bytes after the stream that start no gzip member are refused, whole or in a piece of their own.
    func testTrailingBytesThrow() throws {
        let payload = Array("a small body".utf8)
        let compressions = try compressions(of: payload)
        let cases: [(Format, [UInt8], String)] = [
            (.gzip, Array("junk".utf8), "bytes after the end of the gzip data"),
            (.gzip, [0x1F, 0x8C], "bytes after the end of the gzip data"),
            (.gzip, [0x00], "bytes after the end of the gzip data"),
            (.zlib, [0x00], "bytes after the end of the deflate data"),
            (.rawDeflate, Array("junk".utf8), "bytes after the end of the deflate data"),
        ]
        for (format, trailer, expected) in cases {
            let compressed = compressions[format]!
            // In the same piece as the stream's end, and in a piece of its own.
            for split in [compressed.count + trailer.count, compressed.count] {
                let decoder = try HTTPContentDecoder(format.coding, maxDecodedLength: Self.bound)
                let whole = compressed + trailer
                let error = catchDecompressionError {
                    _ = try decoder.decode(ByteBuffer(whole[..<split]))
                    _ = try decoder.decode(ByteBuffer(whole[split...]))
                }
                XCTAssertEqual(error?.detail, expected, "\(format) + \(trailer), split at \(split)")
            }
        }
        // Half a gzip magic after a member: more is needed, and none comes.
        let decoder = try HTTPContentDecoder(.gzip, maxDecodedLength: Self.bound)
        XCTAssertEqual(Array(ByteBuffer(concatenating: try decoder.decode(ByteBuffer(compressions[.gzip]! + [0x1F])))), payload)
        assertDecompressionError(try decoder.finish(), "the compressed body ends early", "a member and 0x1f")
    }

    /// A body that is not gzip at all, and zlib data that needs a preset dictionary.
    func testNotGzipAndPresetDictionary() throws {
        let html = try HTTPContentDecoder(.gzip, maxDecodedLength: Self.bound)
        assertDecompressionError(try html.decode(ByteBuffer(string: "<html></html>")), "the body is not gzip data (it starts with 0x3c 0x68)", "html as gzip")
        let lone = try HTTPContentDecoder(.gzip, maxDecodedLength: Self.bound)
        assertDecompressionError(try lone.decode(ByteBuffer(string: "<")), "the body is not gzip data (it starts with 0x3c)", "one byte that starts no member")

        let script = "import sys, zlib; c = zlib.compressobj(zdict=b'a shared dictionary'); sys.stdout.buffer.write(c.compress(b'a shared dictionary, used') + c.flush())"
        let withDictionary = try pythonOutput(script)
        let decoder = try HTTPContentDecoder(.deflate, maxDecodedLength: Self.bound)
        assertDecompressionError(try decoder.decode(ByteBuffer(withDictionary)), "deflate data needs a preset dictionary, which HTTP cannot name", "zdict")
    }

    /// After an error, every call throws it again.
    func testErrorsAreSticky() throws {
        let decoder = try HTTPContentDecoder(.gzip, maxDecodedLength: Self.bound)
        assertDecompressionError(try decoder.decode(ByteBuffer(string: "no")), "the body is not gzip data (it starts with 0x6e 0x6f)", "first")
        assertDecompressionError(try decoder.decode(ByteBuffer([0x1F, 0x8B])), "the body is not gzip data (it starts with 0x6e 0x6f)", "later decode")
        assertDecompressionError(try decoder.finish(), "the body is not gzip data (it starts with 0x6e 0x6f)", "finish")
    }

    /// A body of exactly `maxDecodedLength` bytes inflates; one byte more does not.
    func testTheBoundIsExact() throws {
        let payload = Self.payloads[3].bytes
        let compressions = try compressions(of: payload)
        for format in Format.allCases {
            let compressed = compressions[format]!
            try assertInflates(compressed, format.coding, to: payload, chunks: [compressed.count], maxDecodedLength: payload.count, "\(format) at exactly the bound")
            let decoder = try HTTPContentDecoder(format.coding, maxDecodedLength: payload.count - 1)
            assertDecompressionError(try decoder.decode(ByteBuffer(compressed)), "the body inflates past \(payload.count - 1) bytes", "\(format), one byte over")
            XCTAssertLessThanOrEqual(decoder.decodedLength, payload.count - 1)
        }
        let zero = try HTTPContentDecoder(.gzip, maxDecodedLength: 0)
        assertDecompressionError(try zero.decode(ByteBuffer(compressions[.gzip]!)), "the body inflates past 0 bytes", "a bound of 0")
    }

    /// 100 MiB of zeros (about 100 KB compressed) stop at a 1 MiB bound, at once.
    func testBombStopsAtTheBound() throws {
        let bound = 1 << 20
        for coding in [HTTPContentDecoder.Coding.gzip, .deflate] {
            let compress = coding == .gzip ? "gzip.compress(zeros)" : "zlib.compress(zeros, 9)"
            let bomb = try pythonOutput("import sys, gzip, zlib; zeros = bytes(100 << 20); sys.stdout.buffer.write(\(compress))")
            XCTAssertLessThan(bomb.count, 200_000, "100 MiB of zeros compress to about 100 KB")
            let decoder = try HTTPContentDecoder(coding, maxDecodedLength: bound)
            var decoded = 0
            var failure: HTTPClientError?
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                // 64 B of the bomb inflate to about 64 KiB.
                for start in stride(from: 0, to: bomb.count, by: 64) {
                    do throws(HTTPClientError) {
                        decoded += try decoder.decode(ByteBuffer(bomb[start..<min(start + 64, bomb.count)])).reduce(0) { $0 + $1.count }
                    } catch {
                        failure = error
                        break
                    }
                }
            }
            XCTAssertEqual(failure, HTTPClientError(.decompression, "the body inflates past 1048576 bytes"), "\(coding)")
            XCTAssertLessThanOrEqual(decoded, bound, "\(coding): returned past the bound")
            XCTAssertLessThanOrEqual(decoder.decodedLength, bound, "\(coding)")
            XCTAssertGreaterThan(decoded, bound - 4 * HTTPContentDecoder.pieceLength, "\(coding): stopped only near the bound")
            XCTAssertLessThan(elapsed, .seconds(1), "\(coding): the bomb took \(elapsed)")
        }
    }

    /// Inflates `compressed` as `coding`, fed in pieces of the sizes in
    /// `chunks`, then finishes; asserts that it makes `expected`, in
    /// non-empty pieces of at most 64 KiB.
    private func assertInflates(
        _ compressed: [UInt8], _ coding: HTTPContentDecoder.Coding, to expected: [UInt8], chunks: [Int], maxDecodedLength: Int = bound, _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let decoder = try HTTPContentDecoder(coding, maxDecodedLength: maxDecodedLength)
        let body = ByteBuffer(compressed)
        var pieces: [ByteBuffer] = []
        var start = 0
        for count in chunks {
            pieces += try decoder.decode(body.slice(at: start, count: count))
            start += count
        }
        XCTAssertEqual(start, compressed.count, "the chunks cover the body: \(context)", file: file, line: line)
        try decoder.finish()
        let decoded = ByteBuffer(concatenating: pieces)
        XCTAssertTrue(decoded == ByteBuffer(expected), "\(context): \(decoded.count) B decoded, \(expected.count) expected", file: file, line: line)
        XCTAssertEqual(decoder.decodedLength, expected.count, context, file: file, line: line)
        XCTAssertTrue(pieces.allSatisfy { $0.count > 0 && $0.count <= HTTPContentDecoder.pieceLength }, "piece sizes: \(context)", file: file, line: line)
    }

    /// Sizes from 1 to `limit` that add up to `total`.
    private func randomSplits(of total: Int, upTo limit: Int, using generator: inout SeededGenerator) -> [Int] {
        var sizes: [Int] = []
        var left = total
        while left > 0 {
            let size = min(left, Int.random(in: 1...limit, using: &generator))
            sizes.append(size)
            left -= size
        }
        return sizes
    }

    /// The `HTTPClientError` that `body` throws, failing when it throws none.
    private func catchDecompressionError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> HTTPClientError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual((error as? HTTPClientError)?.code, .decompression, "\(error)", file: file, line: line)
            return error as? HTTPClientError
        }
    }

    /// Asserts that `expression` throws `.decompression` with `detail`.
    private func assertDecompressionError<T>(
        _ expression: @autoclosure () throws -> T, _ detail: String, _ context: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), context, file: file, line: line) { error in
            XCTAssertEqual(error as? HTTPClientError, HTTPClientError(.decompression, detail), context, file: file, line: line)
        }
    }
}
