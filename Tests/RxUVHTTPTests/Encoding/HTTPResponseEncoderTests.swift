import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// Responses as bytes: exact heads, chunks and trailers, dates, and h11 (a
/// strict HTTP/1.1 client state machine) reading them back.
final class HTTPResponseEncoderTests: BridgeTestCase {
    private func encoded(_ parts: [HTTPResponsePart]) throws -> [UInt8] {
        var buffers: [ByteBuffer] = []
        for part in parts { try HTTPResponseEncoder().encode(part, into: &buffers) }
        return Array(ByteBuffer(concatenating: buffers))
    }

    func testHead_LengthBody_Exact() throws {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "text/plain"
        let bytes = try encoded([
            .head(response, body: .length(5), keepAlive: true, date: "Sun, 06 Nov 1994 08:49:37 GMT"), .body(ByteBuffer(string: "hello")),
        ])
        XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nhello")
    }

    func testChunked_WithTrailers_AndClose_Exact() throws {
        var trailers = HTTPFields()
        trailers[HTTPField.Name("X-Sum")!] = "42"
        let bytes = try encoded([
            .head(HTTPResponse(status: .notFound), body: .chunked, keepAlive: false, date: nil),
            .chunk(ByteBuffer(string: "abc")), .chunk(ByteBuffer()), .chunk(ByteBuffer(Array(repeating: 0x61, count: 26))),
            .lastChunk(trailers: trailers),
        ])
        XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self),
            "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n1a\r\n\(String(repeating: "a", count: 26))\r\n0\r\nX-Sum: 42\r\n\r\n")
    }

    /// The response's own framing fields give way to a body's framing and
    /// are written as they are without one; its own `Date`, `Server` and
    /// `Connection: close` are not written twice.
    func testHead_OwnFieldsAgainstTheServersOwn_Exact() throws {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentLength] = "99"
        response.headerFields[.contentType] = "text/plain"
        response.headerFields[.date] = "Thu, 01 Jan 1970 00:00:00 GMT"
        response.headerFields[.connection] = "Close"
        let withBody = try encoded([.head(response, body: .length(5), keepAlive: false, date: "Sun, 06 Nov 1994 08:49:37 GMT")])
        XCTAssertEqual(
            String(decoding: withBody, as: UTF8.self),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\nConnection: Close\r\n"
                + "Content-Length: 5\r\n\r\n")
        let withoutBody = try encoded([.head(response, body: .none, keepAlive: true, date: nil)])
        XCTAssertEqual(
            String(decoding: withoutBody, as: UTF8.self),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\nConnection: Close\r\n"
                + "Content-Length: 99\r\n\r\n")
    }

    func testFieldValuesWithCRLF_CannotSplitTheResponse() throws {
        var response = HTTPResponse(status: .ok)
        response.headerFields[HTTPField.Name("X-Evil")!] = "a\r\nSet-Cookie: stolen=1"
        let text = String(decoding: try encoded([.head(response, body: .none, keepAlive: true, date: nil)]), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("Set-Cookie") }, [], text)
    }

    func testDate_IMFFixdate() {
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 4_102_444_799), "Thu, 31 Dec 2099 23:59:59 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 253_402_300_799), "Fri, 31 Dec 9999 23:59:59 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: 253_402_300_800), "Sat, 01 Jan 10000 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(secondsSince1970: -62_135_596_800), "Mon, 01 Jan 0001 00:00:00 GMT")
        var cache = HTTPDateCache()
        XCTAssertEqual(cache.value(secondsSince1970: 0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(cache.value(secondsSince1970: 1), "Thu, 01 Jan 1970 00:00:01 GMT")
    }

    /// Parsing inverts formatting over 400 years of seconds; what is not an
    /// IMF-fixdate (the obsolete formats, a bad day, a lower-case month,
    /// trailing text) is `nil`.
    func testDate_ParseInvertsFormat_RejectsOtherText() {
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -2_208_988_800...10_413_792_000, using: &generator)
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(secondsSince1970: seconds)), seconds)
        }
        for text in [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ", "Sun, 06 Nov 1994 24:00:00 GMT", "",
        ] {
            XCTAssertNil(HTTPDate.parse(text), text)
        }
    }

    /// h11, as a client, reads what the encoder wrote: three pipelined
    /// responses, one with a length, one chunked with trailers, one empty.
    func testH11ReadsTheResponses() throws {
        var trailers = HTTPFields()
        trailers[HTTPField.Name("X-Sum")!] = "7"
        var response = HTTPResponse(status: .created)
        response.headerFields[.contentType] = "application/json"
        let bytes = try encoded([
            .head(response, body: .length(2), keepAlive: true, date: HTTPDate.format(secondsSince1970: 0)), .body(ByteBuffer(string: "{}")),
            .head(HTTPResponse(status: .ok), body: .chunked, keepAlive: true, date: nil),
            .chunk(ByteBuffer(string: "hello ")), .chunk(ByteBuffer(string: "world")), .lastChunk(trailers: trailers),
            .head(HTTPResponse(status: .noContent), body: .none, keepAlive: false, date: nil),
        ])
        let script = """
            import sys, h11
            client = h11.Connection(h11.CLIENT)
            data = sys.stdin.buffer.read()
            out = []
            for cycle in range(3):
                client.send(h11.Request(method="GET", target="/", headers=[("Host", "h")]))
                client.send(h11.EndOfMessage())
                if cycle == 0:
                    client.receive_data(data)
                while True:
                    event = client.next_event()
                    if isinstance(event, h11.Response):
                        out.append("%d %s" % (event.status_code, dict(event.headers).get(b"content-type", b"").decode()))
                    elif isinstance(event, h11.Data):
                        out.append("data " + bytes(event.data).decode())
                    elif isinstance(event, h11.EndOfMessage):
                        out.append("end " + ",".join(n.decode() + "=" + v.decode() for n, v in event.headers))
                        break
                    else:
                        raise SystemExit("unexpected %r" % (event,))
                if client.our_state is h11.DONE and client.their_state is h11.DONE:
                    client.start_next_cycle()
            print("|".join(out))
            """
        let (status, read) = try runPython(["-c", script], input: bytes)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            String(decoding: read, as: UTF8.self),
            "201 application/json|data {}|end |200 |data hello |data world|end x-sum=7|204 |end \n")
    }
}
