import HTTPTypes
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVHTTP

/// The response decoder on hand-written responses: what it accepts and
/// how, the body each status and request method frames, pipelined
/// responses, and the same parts whatever the reads' cuts.
final class HTTPResponseDecoderTests: BridgeTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The responses `text` decodes to whole, checked to be the same when
    /// it arrives one byte at a time and cut at every place.
    private func responses(_ text: String, methods: [HTTPRequest.Method] = [.get], file: StaticString = #filePath, line: UInt = #line)
        -> [DecodedResponse]
    {
        let data = bytes(text)
        let whole = decodeResponses([ByteBuffer(data)], methods: methods)
        XCTAssertNil(whole.error, "\(whole.error.map { "\($0)" } ?? "")", file: file, line: line)
        let oneByte = decodeResponses(data.map { ByteBuffer([$0]) }, methods: methods)
        XCTAssertEqual(oneByte.responses, whole.responses, "one byte at a time", file: file, line: line)
        XCTAssertNil(oneByte.error, file: file, line: line)
        for cut in 1..<max(data.count, 1) {
            let split = decodeResponses(split(data, at: [cut]), methods: methods)
            XCTAssertEqual(split.responses, whole.responses, "cut at \(cut)", file: file, line: line)
        }
        return whole.responses
    }

    func testStatusLine_VersionCodeAndReason() throws {
        let rows: [(String, Int, Int, String)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 1, 200, "OK"),
            ("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n", 0, 404, "Not Found"),
            ("HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", 1, 200, ""),
            ("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 1, 200, ""),
            ("HTTP/1.1 599 Any\tOld  Reason\r\nContent-Length: 0\r\n\r\n", 1, 599, "Any\tOld  Reason"),
            ("HTTP/1.1 302 Found\nLocation: /x\nContent-Length: 0\n\n", 1, 302, "Found"),
        ]
        for (text, minor, code, reason) in rows {
            let decoded = responses(text)
            XCTAssertEqual(decoded.count, 1, text)
            let head = try XCTUnwrap(decoded.first?.head, text)
            XCTAssertEqual(head.minorVersion, minor, text)
            XCTAssertEqual(head.response.status.code, code, text)
            XCTAssertEqual(head.response.status.reasonPhrase, reason, text)
            XCTAssertEqual(head.body, .none, text)
        }
    }

    func testFields_InOrderTrimmed() throws {
        let decoded = responses("HTTP/1.1 200 OK\r\nServer: x\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Pad: \t v \t\r\nX-Empty:\r\nContent-Length: 2\r\n\r\nhi")
        let head = try XCTUnwrap(decoded.first?.head)
        XCTAssertEqual(head.response.headerFields.map(\.name.rawName), ["Server", "Set-Cookie", "set-cookie", "X-Pad", "X-Empty", "Content-Length"])
        XCTAssertEqual(head.response.headerFields[values: .setCookie], ["a=1", "b=2"])
        XCTAssertEqual(head.response.headerFields[HTTPField.Name("X-Pad")!], "v")
        XCTAssertEqual(head.response.headerFields[HTTPField.Name("X-Empty")!], "")
        XCTAssertEqual(decoded.first?.body, bytes("hi"))
        XCTAssertEqual(decoded.first?.ended, true)
    }

    /// A connection's responses that repeat the last head's lines (as a
    /// server's do: the same `Server`, `Content-Type`, status line) decode
    /// to what each decodes to alone, whichever lines change between them
    /// (`HTTPRecentResponseLines`); a line that repeats nothing is checked
    /// as ever, so one that became invalid is refused.
    func testRepeatedLines_DecodeAsEachAlone_AndAChangedLineIsChecked() throws {
        let heads = [
            "HTTP/1.1 200 OK\r\nServer: n\r\nDate: Mon, 30 Nov 2026 02:50:00 GMT\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi",
            "HTTP/1.1 200 OK\r\nServer: n\r\nDate: Mon, 30 Nov 2026 02:50:01 GMT\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nhey",
            "HTTP/1.1 404 Not Found\r\nserver: n\r\nDate: Mon, 30 Nov 2026 02:50:01 GMT\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nServer: n\r\nDate: Mon, 30 Nov 2026 02:50:01 GMT\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi",
        ]
        let together = responses(heads.joined(), methods: Array(repeating: .get, count: heads.count))
        let alone = try heads.map { try XCTUnwrap(responses($0).first) }
        XCTAssertEqual(together, alone)
        XCTAssertEqual(together.map(\.head.response.headerFields[.contentLength]), ["2", "3", "0", "2"])
        XCTAssertEqual(together[2].head.response.headerFields.map(\.name.rawName), ["server", "Date", "Content-Length"])

        let invalid = "HTTP/1.1 200 OK\r\nServer : n\r\nContent-Length: 0\r\n\r\n"
        let refused = decodeResponses([ByteBuffer(bytes(heads[0] + invalid))], methods: [.get, .get])
        XCTAssertEqual(refused.responses.count, 1)
        XCTAssertEqual(refused.reason, decodeResponses([ByteBuffer(bytes(invalid))], methods: [.get]).reason)
        XCTAssertNotNil(refused.reason)
    }

    /// The body's framing, as RFC 9112 §6.3 decides it from the request's
    /// method, the status and the fields, in the order the RFC gives.
    func testBodyFraming_ByMethodStatusAndFields() throws {
        let rows: [(String, HTTPRequest.Method, HTTPResponseHead.BodyFraming, String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", .get, .length(5), "hello", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", .get, .length(5), "hello", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello", .get, .length(5), "hello", true),
            ("HTTP/1.1 200 OK\r\ncontent-length:5 ,5\r\nCONTENT-LENGTH: 5\r\n\r\nhello", .get, .length(5), "hello", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: , chunked ,\r\n\r\n5\r\nhello\r\n0\r\n\r\n", .get, .chunked, "hello", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", .get, .chunked, "hello", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n2;a=b\r\nhe\r\n3\r\nllo\r\n0\r\n\r\n", .post, .chunked, "hello", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", .head, .none, "", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", .head, .none, "", true),
            ("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", .get, .none, "", true),
            ("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n", .get, .none, "", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", .get, .none, "", true),
            ("HTTP/1.1 404 Not Found\r\n\r\nuntil the end", .get, .untilClose, "until the end", false),
            ("HTTP/1.0 200 OK\r\n\r\nold", .get, .untilClose, "old", false),
            ("HTTP/1.1 200 OK\r\n\r\n", .get, .untilClose, "", false),
        ]
        for (text, method, framing, body, keepAlive) in rows {
            let decoded = responses(text, methods: [method])
            XCTAssertEqual(decoded.count, 1, text)
            XCTAssertEqual(decoded.first?.head.body, framing, text)
            XCTAssertEqual(decoded.first?.body, bytes(body), text)
            XCTAssertEqual(decoded.first?.ended, true, "\(text): ended")
            XCTAssertEqual(decoded.first?.head.keepAlive, keepAlive, text)
        }
    }

    /// Field values keep their bytes: ASCII, UTF-8 and obs-text that is
    /// not UTF-8 (Latin-1) alike, OWS around them dropped.
    func testFieldValues_KeepTheirBytes() throws {
        let values: [[UInt8]] = [Array("text/plain; charset=utf-8".utf8), Array("caf\u{E9}".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0x20, 0x80], []]
        var data = Array("HTTP/1.1 200 OK\r\n".utf8)
        for (index, value) in values.enumerated() {
            data += Array("X-\(index):\t".utf8) + value + Array(" \r\n".utf8)
        }
        data += Array("Content-Length: 0\r\n\r\n".utf8)
        let decoded = decodeResponses([ByteBuffer(data)], methods: [.get])
        XCTAssertNil(decoded.error)
        let fields = try XCTUnwrap(decoded.responses.first?.head.response.headerFields)
        for (index, value) in values.enumerated() {
            let field = try XCTUnwrap(fields.first { $0.name.rawName == "X-\(index)" }, "X-\(index)")
            XCTAssertEqual(field.withUnsafeBytesOfValue { Array($0) }, value, "X-\(index)")
        }
        XCTAssertEqual(fields[HTTPField.Name("X-1")!], "caf\u{E9}")
    }

    func testKeepAlive_ByVersionAndConnection() {
        let rows: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nConnection: Upgrade, Close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.0 200 OK\r\nConnection: Upgrade,\r\nConnection: ,\t KEEP-ALIVE \r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alived\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nConnection: closed\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nconnection: x\r\nCONNECTION: Close\r\nContent-Length: 0\r\n\r\n", false),
        ]
        for (text, keepAlive) in rows {
            XCTAssertEqual(responses(text).first?.head.keepAlive, keepAlive, text)
        }
    }

    func testChunked_TrailersParsedAndPassedOn() throws {
        let decoded = responses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 9\r\nX-More:  a b \r\n\r\n")
        let response = try XCTUnwrap(decoded.first)
        XCTAssertEqual(response.body, bytes("abc"))
        XCTAssertEqual(response.trailers?[HTTPField.Name("X-Sum")!], "9")
        XCTAssertEqual(response.trailers?[HTTPField.Name("X-More")!], "a b")
    }

    /// Responses to pipelined requests, in their order: a 1xx before the
    /// final response to the same request, a HEAD's, a 204's and a 304's
    /// without a body whatever their fields say, then bodies of each
    /// framing; one byte at a time as whole.
    func testPipelined_HeadInformational204And304Interleaved() throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nnew"
            + "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
            + "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "HTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 200 OK\r\n\r\nto the end"
        let methods: [HTTPRequest.Method] = [.post, .head, .get, .get, .get, .head, .delete]
        let decoded = responses(text, methods: methods)
        XCTAssertEqual(decoded.map(\.head.response.status.code), [100, 103, 201, 200, 204, 304, 200, 200, 102, 200])
        XCTAssertEqual(decoded.map { String(decoding: $0.body, as: UTF8.self) }, ["", "", "new", "", "", "", "body", "", "", "to the end"])
        XCTAssertEqual(decoded.map(\.ended), Array(repeating: true, count: 10))
        XCTAssertEqual(decoded.map(\.head.isInformational), [true, true, false, false, false, false, false, false, true, false])
    }

    /// A head's status code is kept with its response: whatever status a
    /// caller sets on a decoded head, `isInformational` and `statusCode`
    /// follow it, for every code from 100 to 599.
    func testResponseHead_StatusCodeFollowsTheResponse() {
        var head = responses("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n")[0].head
        XCTAssertEqual(head.statusCode, 100)
        XCTAssertTrue(head.isInformational)
        for code in 100...599 {
            head.response.status = HTTPResponse.Status(code: code)
            XCTAssertEqual(head.statusCode, code)
            XCTAssertEqual(head.isInformational, head.response.status.kind == .informational && code != 101, "\(code)")
        }
        head.response = HTTPResponse(status: HTTPResponse.Status(code: 102))
        XCTAssertEqual(head.statusCode, 102)
        XCTAssertTrue(head.isInformational)
    }

    /// The pending requests are taken as their final responses begin, and
    /// a client may append while the decoder runs.
    func testPendingRequests_TakenByFinalResponses() {
        let pending = HTTPPendingRequests([.get])
        var parts: [HTTPClientResponsePart] = []
        let subject = PublishSubject<ByteBuffer>()
        let subscription = subject.decodeFrames(HTTPResponseDecoder(pending: pending)).subscribe(onNext: { parts.append($0) })
        subject.onNext(ByteBuffer(bytes("HTTP/1.1 100 Continue\r\n\r\n")))
        XCTAssertEqual(pending.count, 1)
        subject.onNext(ByteBuffer(bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")))
        XCTAssertEqual(pending.count, 0)
        pending.append(.head)
        subject.onNext(ByteBuffer(bytes("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n")))
        XCTAssertEqual(pending.count, 0)
        XCTAssertEqual(parts.count, 3)
        subscription.dispose()
    }

    /// 101 and a 2xx to CONNECT end HTTP: what follows is passed on as it
    /// came, and the end of the input is a clean end.
    func testSwitchingProtocols_RestPassedOnAsSwitched() throws {
        let upgrade = responses("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\u{81}\u{5}hello HTTP/1.1 200 OK\r\n\r\n")
        XCTAssertEqual(upgrade.count, 1)
        XCTAssertEqual(upgrade.first?.head.body, .switchedProtocol)
        XCTAssertEqual(upgrade.first?.head.keepAlive, false)
        XCTAssertEqual(upgrade.first?.switched, bytes("\u{81}\u{5}hello HTTP/1.1 200 OK\r\n\r\n"))
        let tunnel = responses("HTTP/1.1 200 Connection Established\r\n\r\n\u{16}\u{3}\u{1}", methods: [.connect])
        XCTAssertEqual(tunnel.first?.head.body, .switchedProtocol)
        XCTAssertEqual(tunnel.first?.switched, bytes("\u{16}\u{3}\u{1}"))
        let refused = responses("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 2\r\n\r\nno", methods: [.connect])
        XCTAssertEqual(refused.first?.head.body, .length(2))
    }
}
