import HTTPTypes
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVHTTP

/// What the response decoder refuses, and why (every refusal is `502 Bad
/// Gateway` with its reason), however the bytes arrive; the limits; the
/// end of the input inside a response; and bounded work per byte.
final class HTTPResponseDecoderRefusalTests: BridgeTestCase {
    /// The reason `text` is refused for, whole; the same at every cut.
    private func refusal(
        _ text: String, methods: [HTTPRequest.Method] = [.get], limits: HTTPLimits = HTTPLimits(maxBodyLength: .max),
        file: StaticString = #filePath, line: UInt = #line
    ) -> String? {
        let data = Array(text.utf8)
        let whole = decodeResponses([ByteBuffer(data)], methods: methods, limits: limits)
        if let error = whole.error as? HTTPParseError {
            XCTAssertEqual(error.status, .badGateway, file: file, line: line)
        }
        for cut in 1..<max(data.count, 1) {
            let split = decodeResponses(split(data, at: [cut]), methods: methods, limits: limits)
            XCTAssertEqual(split.reason, whole.reason, "\(text.debugDescription) cut at \(cut)", file: file, line: line)
        }
        return whole.reason ?? whole.error.map { "\($0)" }
    }

    func testRefusals_EachWithItsReason() {
        let rows: [(String, String)] = [
            // The status line (RFC 9112 §4).
            ("HTTP/1.1  200 OK\r\n\r\n", "malformed status code"),
            ("HTTP/1.1 20 OK\r\n\r\n", "malformed status code"),
            ("HTTP/1.1 2000 OK\r\n\r\n", "malformed status code"),
            ("HTTP/1.1 2x0 OK\r\n\r\n", "malformed status code"),
            ("HTTP/1.1 099 Low\r\n\r\n", "status code 99 outside 100–599"),
            ("HTTP/1.1 600 High\r\n\r\n", "status code 600 outside 100–599"),
            ("HTTP/1.1 200 O\u{1}K\r\n\r\n", "malformed reason phrase"),
            ("http/1.1 200 OK\r\n\r\n", "malformed status line"),
            ("HTTP/1.1\t200 OK\r\n\r\n", "malformed status line"),
            ("HTTP/11 200 OK\r\n\r\n", "malformed status line"),
            ("\r\nHTTP/1.1 200 OK\r\n\r\n", "no status line"),
            ("HTTP/1.2 200 OK\r\n\r\n", "HTTP version HTTP/1.2 not supported"),
            ("HTTP/2.0 200 OK\r\n\r\n", "HTTP version HTTP/2.0 not supported"),
            ("HTTP/0.9 200 OK\r\n\r\n", "HTTP version HTTP/0.9 not supported"),
            // The fields (RFC 9112 §5, §2.2).
            ("HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", "obsolete line folding"),
            ("HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n", "bare CR"),
            ("HTTP/1.1 200 OK\rX: a\r\n\r\n", "bare CR"),
            ("HTTP/1.1 200 OK\r\nX : a\r\n\r\n", "malformed field name"),
            ("HTTP/1.1 200 OK\r\n: a\r\n\r\n", "malformed field name"),
            ("HTTP/1.1 200 OK\r\nNo colon\r\n\r\n", "header line without a colon"),
            ("HTTP/1.1 200 OK\r\nX: a\u{0}b\r\n\r\n", "malformed value of X"),
            // The framing (RFC 9112 §6).
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", "conflicting Content-Length values"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabc", "conflicting Content-Length values"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3,\r\n\r\nabc", "conflicting Content-Length values"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: ,3\r\n\r\nabc", "conflicting Content-Length values"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\ncontent-length: 03\r\n\r\nabc", "conflicting Content-Length values"),
            ("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n", "malformed Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc", "malformed Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 0x3\r\n\r\nabc", "malformed Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "malformed Content-Length"),
            ("HTTP/1.1 204 No Content\r\nContent-Length: x\r\n\r\n", "malformed Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "Content-Length and Transfer-Encoding"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "transfer coding gzip"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n\r\n", "transfer coding "),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunkedx\r\n\r\n", "transfer coding chunkedx"),
            ("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nTRANSFER-ENCODING: Chunked\r\n\r\n", "transfer coding chunked, Chunked"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", "transfer coding chunked, gzip"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "transfer coding gzip, chunked"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", "transfer coding chunked, chunked"),
            ("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "Transfer-Encoding in HTTP/1.0"),
            // Chunks (RFC 9112 §7.1).
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "malformed chunk size"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n", "chunk line without CRLF"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a\u{1}\r\nabc\r\n", "malformed chunk extension"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "chunk data longer than its size"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\n", "chunk size over 2^63"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX : 1\r\n\r\n", "malformed field name"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n folded\r\n\r\n", "obsolete line folding"),
        ]
        for (text, reason) in rows {
            XCTAssertEqual(refusal(text), reason, text.debugDescription)
        }
    }

    func testResponseWithNoRequestPending_Refused() {
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", methods: []), "a response with no request pending")
        XCTAssertEqual(
            refusal("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", methods: [.get]),
            "a response with no request pending")
        // A 1xx takes no request: the final response does.
        XCTAssertNil(refusal("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", methods: [.put]))
    }

    func testLimits_StatusLineHeadFieldsBody() {
        let limits = HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxHeaderFields: 4, maxBodyLength: 10)
        let long = String(repeating: "r", count: 100)
        XCTAssertEqual(refusal("HTTP/1.1 200 \(long)\r\n\r\n", limits: limits), "status line over 64 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 \(long)", limits: limits), "status line over 64 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\nX: \(String(repeating: "b", count: 300))", limits: limits), "head over 256 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\nX: \(String(repeating: "b", count: 250))\r\n\r\n", limits: limits), "head over 256 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", limits: limits), "over 4 header fields")
        XCTAssertNil(refusal("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nContent-Length: 0\r\n\r\n", limits: limits))
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", limits: limits), "Content-Length 11 over 10")
        XCTAssertEqual(
            refusal("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", limits: limits), "body over 10 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\r\n0123456789A", limits: limits), "body over 10 bytes")
        // A body the close ends, over the limit: the bytes up to it are
        // passed on however they were cut (found by fuzzing: in one read,
        // none were).
        let over = Array("HTTP/1.1 200 OK\r\n\r\n0123456789ABC".utf8)
        for cut in 0..<over.count {
            let decoded = decodeResponses(split(over, at: [cut]), limits: limits)
            XCTAssertEqual(decoded.responses.first?.body, Array("0123456789".utf8), "cut at \(cut)")
        }
        // A field line over its limit, in the head or the trailers; the
        // head's limit first when the head passes it before the line does.
        let fieldLimits = HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxFieldLineLength: 40, maxHeaderFields: 4, maxBodyLength: 10)
        let longField = "X: " + String(repeating: "v", count: 38)
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(longField)\r\n\r\n", limits: fieldLimits), "field line over 40 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(longField)\n\n", limits: fieldLimits), "field line over 40 bytes")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(longField.dropLast())\r\nContent-Length: 0\r\n\r\n", limits: fieldLimits), nil)
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(longField)", limits: fieldLimits), "truncated head", "not known over yet")
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(longField)v", limits: fieldLimits), "field line over 40 bytes")
        XCTAssertEqual(
            refusal("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(longField)\r\n\r\n", limits: fieldLimits), "field line over 40 bytes")
        let padding = (0..<6).map { "P\($0): \(String(repeating: "p", count: 30))\r\n" }.joined()
        XCTAssertEqual(refusal("HTTP/1.1 200 OK\r\n\(padding)\(longField)\r\n\r\n", limits: fieldLimits), "head over 256 bytes")
        let trailers = (0..<5).map { "T\($0): x\r\n" }.joined()
        XCTAssertEqual(
            refusal("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(trailers)\r\n", limits: limits), "over 4 trailer fields")
        XCTAssertEqual(
            refusal("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: \(String(repeating: "t", count: 300))", limits: limits),
            "head over 256 bytes")
    }

    /// The end of the input inside a response is a truncated one, except
    /// in a body the close delimits, between responses, and after a switch
    /// of protocols.
    func testEndOfInput_TruncatedOrClean() {
        let rows: [(String, String?)] = [
            ("HTTP/1.1 200 OK\r\nContent-Le", "truncated head"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", "truncated body: 2 bytes missing"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", "truncated body: 5 bytes missing"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "truncated body: chunks missing"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "truncated body: chunks missing"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5", "truncated body"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n", "truncated body"),
            ("HTTP/1.1 100 Continue\r\n\r\n", "truncated response: no final response after 1xx"),
            ("HTTP/1.1 200 OK\r\n\r\npartial or not, the close ends it", nil),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", nil),
            ("HTTP/1.1 101 Switching Protocols\r\n\r\nxyz", nil),
            ("", nil),
        ]
        for (text, reason) in rows {
            XCTAssertEqual(refusal(text, methods: [.get, .get]), reason, text.debugDescription)
        }
    }

    /// A maximal head, one byte at a time: each byte is scanned a bounded
    /// number of times (no rescans from the start as bytes arrive), and
    /// the head is taken.
    func testMaximalHead_OneByteAtATime_ScannedOnce() throws {
        let limits = HTTPLimits(maxHeadLength: 32 * 1024, maxFieldLineLength: 32 * 1024, maxHeaderFields: 1000, maxBodyLength: .max)
        var text = "HTTP/1.1 200 OK\r\n"
        var index = 0
        while text.utf8.count < limits.maxHeadLength - 40 {
            text += "X-\(index): \(String(repeating: "v", count: index % 50))\r\n"
            index += 1
        }
        text += "Content-Length: 0\r\n"
        text += String(repeating: "p", count: limits.maxHeadLength - text.utf8.count - 6) + ": \r\n\r\n"
        let data = Array(text.utf8)
        XCTAssertEqual(data.count, limits.maxHeadLength)
        var decoder = HTTPResponseDecoder(pending: HTTPPendingRequests([.get]), limits: limits)
        var looked = 0
        var head: HTTPResponseHead?
        for count in 1...data.count {
            var reader = ByteBuffer.Reader(ByteBuffer(data[0..<count]))
            looked += count - decoder.scanner.scanned
            if case .head(let decoded)? = try decoder.decode(&reader) {
                head = decoded
                XCTAssertEqual(count, data.count)
            }
        }
        XCTAssertLessThanOrEqual(looked, 3 * data.count, "bytes looked at for a head of \(data.count)")
        XCTAssertEqual(head?.response.headerFields.count, index + 2)
        // One byte more is refused, one byte at a time as whole.
        let over = Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "v", count: limits.maxHeadLength)).utf8)
        XCTAssertEqual(decodeResponses(over.map { ByteBuffer([$0]) }, limits: limits).reason, "head over 32768 bytes")
    }
}
