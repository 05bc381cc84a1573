import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// Requests as bytes: exact heads, the body's framing, refusals, our own
/// decoder reading back what was written, and h11 (a strict HTTP/1.1
/// server state machine) reading it.
final class HTTPRequestEncoderTests: BridgeTestCase {
    private func encoded(_ parts: [HTTPClientRequestPart]) throws -> String {
        var buffers: [ByteBuffer] = []
        for part in parts { try HTTPRequestEncoder().encode(part, into: &buffers) }
        return String(decoding: Array(ByteBuffer(concatenating: buffers)), as: UTF8.self)
    }

    private func request(_ method: HTTPRequest.Method, _ path: String?, authority: String? = "example.com", fields: HTTPFields = [:]) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: nil, authority: authority, path: path)
        request.headerFields = fields
        return request
    }

    /// One head each, with the whole text it is written as.
    func testHeads_Exact() throws {
        var accept = HTTPFields()
        accept[.accept] = "*/*"
        var ownFraming = HTTPFields()
        ownFraming[.contentLength] = "99"
        ownFraming[.transferEncoding] = "gzip"
        var saysClose = HTTPFields()
        saysClose[.connection] = "Keep-Alive, CLOSE"
        var hostField = HTTPFields()
        hostField[HTTPField.Name("Host")!] = "other.example"
        let table: [(String, HTTPRequestHead, String)] = [
            ("a GET", HTTPRequestHead(request(.get, "/a?b=1", fields: accept)), "GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n"),
            ("a length", HTTPRequestHead(request(.post, "/p"), body: .length(5)), "POST /p HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\n"),
            ("chunked", HTTPRequestHead(request(.put, "/u"), body: .chunked), "PUT /u HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"),
            (
                "the request's framing gives way", HTTPRequestHead(request(.post, "/p", fields: ownFraming), body: .length(2)),
                "POST /p HTTP/1.1\r\nHost: example.com\r\nContent-Length: 2\r\n\r\n"
            ),
            (
                "the request's framing with no body", HTTPRequestHead(request(.post, "/p", fields: ownFraming)),
                "POST /p HTTP/1.1\r\nHost: example.com\r\nContent-Length: 99\r\nTransfer-Encoding: gzip\r\n\r\n"
            ),
            ("close", HTTPRequestHead(request(.get, "/"), keepAlive: false), "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"),
            (
                "close said already", HTTPRequestHead(request(.get, "/", fields: saysClose), keepAlive: false),
                "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: Keep-Alive, CLOSE\r\n\r\n"
            ),
            (
                "HTTP/1.0 kept alive", HTTPRequestHead(request(.get, "/"), minorVersion: 0),
                "GET / HTTP/1.0\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n"
            ),
            ("HTTP/1.0 closed", HTTPRequestHead(request(.get, "/"), minorVersion: 0, keepAlive: false), "GET / HTTP/1.0\r\nHost: example.com\r\nConnection: close\r\n\r\n"),
            (
                "100-continue", HTTPRequestHead(request(.post, "/up"), body: .length(3), expectsContinue: true),
                "POST /up HTTP/1.1\r\nHost: example.com\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
            ),
            ("no authority", HTTPRequestHead(request(.get, "/", authority: nil)), "GET / HTTP/1.1\r\nHost: \r\n\r\n"),
            ("a Host field gives way to the authority", HTTPRequestHead(request(.get, "/", fields: hostField)), "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
            ("CONNECT, authority form", HTTPRequestHead(request(.connect, nil, authority: "db.example:5432")), "CONNECT db.example:5432 HTTP/1.1\r\nHost: db.example:5432\r\n\r\n"),
            ("OPTIONS *", HTTPRequestHead(request(.options, "*")), "OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n"),
            ("another method", HTTPRequestHead(request(HTTPRequest.Method("PURGE")!, "/cache")), "PURGE /cache HTTP/1.1\r\nHost: example.com\r\n\r\n"),
        ]
        for (name, head, expected) in table {
            XCTAssertEqual(try encoded([.head(head)]), expected, name)
        }
    }

    func testBody_LengthAndChunks_Exact() throws {
        var trailers = HTTPFields()
        trailers[HTTPField.Name("X-Sum")!] = "42"
        XCTAssertEqual(
            try encoded([.head(HTTPRequestHead(request(.post, "/p"), body: .length(5))), .body(ByteBuffer(string: "hel")), .body(ByteBuffer()), .body(ByteBuffer(string: "lo"))]),
            "POST /p HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(
            try encoded([
                .head(HTTPRequestHead(request(.post, "/c"), body: .chunked)), .chunk(ByteBuffer(string: "abc")), .chunk(ByteBuffer()),
                .chunk(ByteBuffer(Array(repeating: 0x61, count: 4096))), .lastChunk(trailers: trailers),
            ]),
            "POST /c HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n1000\r\n\(String(repeating: "a", count: 4096))\r\n0\r\nX-Sum: 42\r\n\r\n")
    }

    /// What would split or bend the request line, or cannot be framed, is
    /// refused with a reason, and nothing is written.
    func testRefusals_NothingWritten() throws {
        let table: [(String, HTTPRequestHead, String)] = [
            ("a space in the target", HTTPRequestHead(request(.get, "/a b")), "the request target holds the byte 0x20"),
            ("non-ASCII in the target", HTTPRequestHead(request(.get, "/ä")), "the request target holds the byte 0xc3"),
            ("an empty target", HTTPRequestHead(request(.get, "")), "the request target is empty"),
            ("a space in the authority", HTTPRequestHead(request(.get, "/", authority: "a b")), "the authority holds the byte 0x20"),
            ("chunks on HTTP/1.0", HTTPRequestHead(request(.post, "/"), minorVersion: 0, body: .chunked), "a chunked body on HTTP/1.0"),
            ("HTTP/1.2", HTTPRequestHead(request(.get, "/"), minorVersion: 2), "HTTP/1.2 is not a version"),
        ]
        for (name, head, reason) in table {
            var buffers: [ByteBuffer] = []
            XCTAssertThrowsError(try HTTPRequestEncoder().encode(.head(head), into: &buffers), name) { error in
                guard let error = error as? HTTPRequestEncoder.Error else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(error.reason.hasPrefix(reason), "\(name): \(error.reason)")
                XCTAssertTrue(error.description.hasPrefix("cannot write the request: "), name)
            }
            XCTAssertTrue(buffers.isEmpty, name)
        }
    }

    /// CR, LF, NUL or DEL in a target or an authority never reach the
    /// head: swift-http-types legalizes them when the request is made (a
    /// space the encoder then refuses, or trimmed), and the encoder refuses
    /// what is left; a request line with any of them is never written.
    func testLineBreaksAndNUL_NeverSplitTheHead() throws {
        for (path, authority) in [("/a\r\nX-Injected: 1", "h"), ("/a\nX-Injected: 1", "h"), ("/a\u{0}b", "h"), ("/", "h\r\nX-Injected: 1"), ("/a\u{7F}", "h"), ("/a\u{7F}b", "h")] {
            var buffers: [ByteBuffer] = []
            do {
                try HTTPRequestEncoder().encode(.head(HTTPRequestHead(request(.get, path, authority: authority))), into: &buffers)
            } catch let error as HTTPRequestEncoder.Error {
                XCTAssertTrue(buffers.isEmpty)
                XCTAssertTrue(error.reason.contains("holds the byte"), error.reason)
                continue
            }
            let text = String(decoding: Array(ByteBuffer(concatenating: buffers)), as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n")
            XCTAssertFalse(lines.contains { $0.hasPrefix("X-Injected") }, text)
            XCTAssertFalse(text.utf8.contains(0) || text.utf8.contains(0x7F), text)
            XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains { $0 == "\r" || $0 == "\n" }, text)
        }
    }

    /// Our decoder reads back what the encoder wrote: heads with every
    /// framing, bodies and trailers, pipelined, cut into one-byte reads.
    func testRoundTrip_ThroughTheRequestDecoder() throws {
        var fields = HTTPFields()
        fields[.accept] = "*/*"
        fields[HTTPField.Name("X-Many")!] = "a, b"
        var trailers = HTTPFields()
        trailers[HTTPField.Name("X-Sum")!] = "9"
        let heads = [
            HTTPRequestHead(request(.get, "/a?b=1", fields: fields)),
            HTTPRequestHead(request(.post, "/len"), body: .length(5)),
            HTTPRequestHead(request(.put, "/chunks"), body: .chunked, expectsContinue: true),
            HTTPRequestHead(request(.delete, "/old"), minorVersion: 0, body: .length(0)),
            HTTPRequestHead(request(.get, "/last"), keepAlive: false),
        ]
        let parts: [HTTPClientRequestPart] = [
            .head(heads[0]),
            .head(heads[1]), .body(ByteBuffer(string: "hel")), .body(ByteBuffer(string: "lo")),
            .head(heads[2]), .chunk(ByteBuffer(string: "abc")), .chunk(ByteBuffer(string: "de")), .lastChunk(trailers: trailers),
            .head(heads[3]),
            .head(heads[4]),
        ]
        var buffers: [ByteBuffer] = []
        for part in parts { try HTTPRequestEncoder().encode(part, into: &buffers) }
        let bytes = Array(ByteBuffer(concatenating: buffers))
        let decoded = decodeAll(bytes.map { ByteBuffer([$0]) })
        XCTAssertNil(decoded.error)
        var read: [HTTPRequestHead] = []
        var bodies: [String] = []
        var body = ""
        var readTrailers: [HTTPFields?] = []
        for part in decoded.parts {
            switch part {
            case .head(let head):
                read.append(head)
                if head.body == .none { bodies.append("") }
            case .body(let bytes):
                body += String(decoding: Array(bytes), as: UTF8.self)
            case .end(let last, let trailers):
                body += String(decoding: Array(last), as: UTF8.self)
                bodies.append(body)
                body = ""
                readTrailers.append(trailers)
            }
        }
        XCTAssertEqual(read.count, heads.count)
        for (written, back) in zip(heads, read) {
            XCTAssertEqual(back.request.method, written.request.method)
            XCTAssertEqual(back.request.path, written.request.path)
            XCTAssertEqual(back.request.authority, written.request.authority)
            XCTAssertEqual(back.minorVersion, written.minorVersion)
            XCTAssertEqual(back.keepAlive, written.keepAlive)
            XCTAssertEqual(back.expectsContinue, written.expectsContinue)
            // A length of 0 reads back as no body, which it is.
            XCTAssertEqual(back.body, written.body == .length(0) ? .none : written.body)
            // The fields as given, then the framing and connection fields
            // the encoder adds.
            XCTAssertEqual(Array(back.request.headerFields.prefix(written.request.headerFields.count)), Array(written.request.headerFields))
        }
        XCTAssertEqual(bodies, ["", "hello", "abcde", "", ""])
        XCTAssertEqual(readTrailers.compactMap { $0 }, [trailers])
    }

    /// h11, as a server, reads what the encoder wrote: two pipelined
    /// requests, one with a length, one chunked with a trailer.
    func testH11ReadsTheRequests() throws {
        var trailers = HTTPFields()
        trailers[HTTPField.Name("X-Sum")!] = "7"
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        var buffers: [ByteBuffer] = []
        for part: HTTPClientRequestPart in [
            .head(HTTPRequestHead(request(.post, "/json", fields: fields), body: .length(2))), .body(ByteBuffer(string: "{}")),
            .head(HTTPRequestHead(request(.put, "/chunks"), body: .chunked)),
            .chunk(ByteBuffer(string: "hello ")), .chunk(ByteBuffer(string: "world")), .lastChunk(trailers: trailers),
        ] {
            try HTTPRequestEncoder().encode(part, into: &buffers)
        }
        let script = """
            import sys, h11
            server = h11.Connection(h11.SERVER)
            server.receive_data(sys.stdin.buffer.read())
            out = []
            for cycle in range(2):
                while True:
                    event = server.next_event()
                    if isinstance(event, h11.Request):
                        headers = dict(event.headers)
                        out.append("%s %s %s %s" % (event.method.decode(), event.target.decode(), headers[b"host"].decode(), headers.get(b"content-type", b"").decode()))
                    elif isinstance(event, h11.Data):
                        out.append("data " + bytes(event.data).decode())
                    elif isinstance(event, h11.EndOfMessage):
                        out.append("end " + ",".join(n.decode() + "=" + v.decode() for n, v in event.headers))
                        break
                    else:
                        raise SystemExit("unexpected %r" % (event,))
                server.send(h11.Response(status_code=204, headers=[]))
                server.send(h11.EndOfMessage())
                server.start_next_cycle()
            print("|".join(out))
            """
        let (status, read) = try runPython(["-c", script], input: Array(ByteBuffer(concatenating: buffers)))
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            String(decoding: read, as: UTF8.self),
            "POST /json example.com application/json|data {}|end |PUT /chunks example.com |data hello |data world|end x-sum=7\n")
    }
}
